#if Server
import HeraldContract
import HeraldEngine
import Hummingbird
import NIOCore

/// Reads a request body as JSON within the server's limits: a declared or actual size over
/// `maxBytes` is 413 `body_too_large`, nesting over `maxDepth` is 400 `too_deep`, anything not JSON
/// is 400 `malformed_json`, and a body that is not an object is 422 `invalid_request`.
struct RequestBodyReader: Sendable {
    var maxBytes: Int
    var maxDepth: Int

    func object(_ request: Request) async throws -> JSON {
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
