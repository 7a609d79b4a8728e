#if Server
import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore

/// The outermost middleware: gives the request an id (the client's `X-Request-Id` when it is short
/// and printable, else a fresh one), puts it in the logger's metadata and the response's header,
/// turns every error into the `{"error": …}` JSON of `APIError` (a 4xx: a known path asked with
/// another method is 405 with `Allow`,
/// or 503 for the store and timeouts; an unexpected error is a 500 with no details and is logged),
/// and counts the response in `herald_http_requests_total`.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = ServeRequestContext
    let metrics: ServeMetrics

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = Self.requestID(request.headers[.xRequestID])
        context.logger[metadataKey: "request_id"] = .string(id)
        context.requestID = id
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Self.errorResponse(error, request: request, context: context)
        }
        response.headers[.xRequestID] = id
        let route = context.endpointPath ?? "unmatched"
        metrics.request(route: route, status: response.status.code)
        if response.status.code >= 500 {
            context.logger.warning("request failed", metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
                "elapsed_ms": .stringConvertible(Double((ContinuousClock.now - started).components.attoseconds / 1_000_000_000_000) / 1000),
            ])
        } else {
            context.logger.debug("request", metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
            ])
        }
        return response
    }

    static func errorResponse(_ error: any Error, request: Request, context: Context) -> Response {
        let apiError: APIError
        switch error {
        case let error as APIError:
            apiError = error
        case is NIOTooManyBytesError:
            apiError = .bodyTooLarge(limit: -1)
        case let error as HTTPError where error.status == .notFound:
            let allowed = RouteTable.served.methods(for: request.uri.path)
            apiError = allowed.isEmpty ? .notFound(request.uri.path) : .methodNotAllowed(request.method, path: request.uri.path, allow: allowed)
        case let error as HTTPError:
            apiError = APIError(error.status, code: error.status.code < 500 ? "bad_request" : "internal", message: error.body ?? error.status.reasonPhrase.lowercased())
        default:
            context.logger.error("unexpected error", metadata: ["error": .string(String(describing: error))])
            apiError = APIError(.internalServerError, code: "internal", message: "internal error; see the server log for request id")
        }
        return (try? apiError.response(from: request, context: context)) ?? Response(status: apiError.status)
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
