#if Server
import Foundation
import HeraldContract
import HeraldEngine
import Hummingbird
import NIOCore

/// Reads a request body as JSON within the server's limits: a declared or actual size over
/// `maxBytes` is 413 `body_too_large`, nesting over `maxDepth` is 400 `too_deep`, anything not JSON
/// is 400 `malformed_json`, and a body that is not an object is 422 `invalid_request`. A body
/// not declared `application/json` is 415 `unsupported_media_type`, read no further: a web page
/// can send a `text/plain` or untyped POST to loopback without asking (a CORS "simple request"),
/// but not an `application/json` one.
struct RequestBodyReader: Sendable {
    var maxBytes: Int
    var maxDepth: Int

    /// `Content-Type: application/json` (or `application/<something>+json`), parameters such as
    /// `charset` allowed.
    static func requireJSONContentType(_ request: Request) throws(APIError) {
        let declared = request.headers[.contentType] ?? ""
        let mediaType = declared.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json")) else {
            let got = declared.isEmpty ? "no `Content-Type`" : "`Content-Type: \(declared.prefix(100))`"
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type",
                           message: "the body must be sent as `Content-Type: application/json`, got \(got)", field: "Content-Type")
        }
    }

    func object(_ request: Request) async throws -> JSON {
        try Self.requireJSONContentType(request)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw APIError.bodyTooLarge(limit: maxBytes)
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limit: maxBytes)
        }
        if buffer.readableBytes == 0 {
            throw APIError(.badRequest, code: "malformed_json", message: "the request body is empty; send a JSON object", field: "request")
        }
        let json: JSON
        do {
            json = try JSON.parse(bytes: buffer.readableBytesView, limits: JSONLimits(maxDepth: maxDepth, maxBytes: maxBytes))
        } catch {
            throw APIError.malformed(error)
        }
        guard json.members != nil else {
            throw APIError(.unprocessableContent, code: "invalid_request", message: "expected a JSON object, got \(json.kindName)", field: "request")
        }
        return json
    }
}
#endif
