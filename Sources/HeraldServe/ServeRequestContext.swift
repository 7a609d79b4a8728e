#if Server
import Foundation
import HeraldEngine
public import Hummingbird
internal import Logging

/// The request context of `herald serve`: Hummingbird's core storage plus the request id the
/// outermost middleware assigns (also in the logger's metadata as `request_id`).
public struct ServeRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var requestID: String = ""

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// The path parameter `name` (`:id`, `:name`), percent-decoded: `/v1/users/a%2Fb/ledger` names
    /// the user `a/b`. Every route reads its parameters here, so no route sees the raw segment.
    /// - Throws: `APIError` 400 `invalid_request` for a malformed escape (`%zz`) or bytes that are
    ///   not UTF-8.
    func pathParameter(_ name: String) throws(APIError) -> String {
        let raw = parameters.get(name) ?? ""
        guard let decoded = raw.removingPercentEncoding else {
            throw APIError(.badRequest, code: "invalid_request",
                           message: "the path segment `\(raw)` is not valid percent-encoded UTF-8", field: name)
        }
        return decoded
    }

    /// The user id of a `/v1/users/{id}…` path: decoded, 1 to `UserContext.maxIDBytes` bytes.
    func userParameter() throws(APIError) -> String {
        let user = try pathParameter("id")
        guard !user.isEmpty, UserContext.idProblem(user) == nil else {
            throw APIError(.badRequest, code: "invalid_request",
                           message: "the user id in the path must be 1 to \(UserContext.maxIDBytes) bytes once decoded", field: "id")
        }
        return user
    }
}
#endif
