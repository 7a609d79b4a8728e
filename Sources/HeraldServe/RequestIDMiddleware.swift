#if Server
import HTTPTypes
public import Hummingbird
import Logging

/// The outermost middleware: gives the request an id (the client's `X-Request-Id` when it is short
/// and printable, else a fresh one), puts it in the logger's metadata (`request_id`) and the
/// context, and returns it in the response's `X-Request-Id`.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = ServeRequestContext

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = Self.requestID(request.headers[.xRequestID])
        context.logger[metadataKey: "request_id"] = .string(id)
        context.requestID = id
        var response = try await next(request, context)
        response.headers[.xRequestID] = id
        return response
    }

    /// The client's id when it is 1–64 characters of `[A-Za-z0-9._-]`, else a new random one.
    static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.utf8.count),
           given.utf8.allSatisfy({ $0 == 45 || $0 == 46 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }) {
            return given
        }
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
#endif
