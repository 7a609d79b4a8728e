#if Server
public import HeraldContract
internal import HeraldEngine
public import HTTPTypes
public import Hummingbird

/// A request the server refuses: a stable `code`, a one-line `message` (Cedar style: lowercase, no
/// final period, user input in backticks) and the request `field` it is about, if any. Its JSON is
/// `{"error": {"code", "message", "field"}}` with a 4xx status (503 for an unavailable store), never a
/// stack trace or a closed connection.
public struct APIError: Error, Sendable, Equatable, HTTPResponseError {
    public var status: HTTPResponse.Status
    /// Stable, snake_case: clients and tests match on it, never on the message.
    public var code: String
    public var message: String
    /// The request field the error is about (`type`, `prefs.timezone`), or nil.
    public var field: String?
    /// Seconds a client should wait before retrying (503 only).
    public var retryAfter: Int?
    /// The methods the path allows (405 only): the `Allow` header.
    public var allow: [HTTPRequest.Method]?

    public init(_ status: HTTPResponse.Status, code: String, message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    public var headers: HTTPFields {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        if let allow { fields[.allow] = allow.map(\.rawValue).joined(separator: ", ") }
        return fields
    }

    /// `{"error": {"code", "message", "field"}}`; `field` is null when the error is about no field.
    public var json: JSON {
        ["error": ["code": .string(code), "message": .string(message), "field": field.map(JSON.string) ?? .null]]
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(json.serialized())
        buffer.writeString("\n")
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}

extension APIError {
    static func notFound(_ path: String) -> APIError {
        APIError(.notFound, code: "not_found", message: "no route for `\(path)`")
    }

    /// A known route asked with a method it does not serve.
    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allow: [HTTPRequest.Method]) -> APIError {
        var error = APIError(.methodNotAllowed, code: "method_not_allowed",
                             message: "`\(method.rawValue)` is not allowed on `\(path)`; use \(allow.map { "`\($0.rawValue)`" }.joined(separator: " or "))",
                             field: "method")
        error.allow = allow
        return error
    }

    static func unknownPolicy(_ name: String, known: [String]) -> APIError {
        var message = "unknown policy `\(name)`"
        if !known.isEmpty { message += "; served: \(known.map { "`\($0)`" }.joined(separator: ", "))" }
        return APIError(.notFound, code: "unknown_policy", message: message, field: "name")
    }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "body_too_large", message: "request body is larger than the limit of \(limit) bytes")
    }

    /// A decide or reconcile that times out records nothing, unless its unit was committing at
    /// that instant: the message says so, and a retry with the same `Idempotency-Key` tells.
    static let timeout = APIError(.serviceUnavailable, code: "timeout",
                                  message: "the request took longer than the server's request timeout; a decide or reconcile was not recorded, unless the store was committing it at that instant: retry with the same `Idempotency-Key` to get the recorded answer",
                                  retryAfter: 1)

    /// The parse error of a request body: too deep, too large or not JSON.
    static func malformed(_ error: JSONParseError) -> APIError {
        if error.message.hasPrefix("nesting deeper") {
            return APIError(.badRequest, code: "too_deep", message: "request JSON: \(error.message)", field: "request")
        }
        return APIError(.badRequest, code: "malformed_json", message: "request is not valid JSON at \(error)", field: "request")
    }

    /// Runs a request decoder, turning its errors into `invalid(_:)`.
    static func decoding<T>(_ make: () throws(RequestErrors) -> T) throws(APIError) -> T {
        do { return try make() } catch { throw invalid(error) }
    }

    /// The first problem a request's fields have; the message lists up to `listed` of them and
    /// says how many more there were, so a hostile request cannot make a huge answer.
    static func invalid(_ errors: RequestErrors, listed: Int = 20) -> APIError {
        let first = errors.errors.first
        let code = first.map { $0.path == "type" && $0.message.hasPrefix("unknown type") } == true ? "unknown_type" : "invalid_request"
        var parts = errors.errors.prefix(listed).map { "\($0.path): \($0.message)" }
        let more = errors.errors.count - parts.count + errors.omitted
        if more > 0 { parts.append("… and \(more) more") }
        let message = parts.joined(separator: "; ")
        return APIError(.unprocessableContent, code: code, message: message.isEmpty ? "invalid request" : message, field: first?.path)
    }
}
#endif
