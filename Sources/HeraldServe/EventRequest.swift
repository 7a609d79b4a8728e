#if Server
import HeraldContract
import HeraldEngine
import HeraldStore

/// `POST /v1/events`: `{"user": "u1", "key": "…", "status": "delivered|opened|dismissed|cancelled",
/// "at": "2026-…Z"}` (`at` defaults to the server's clock).
struct EventRequest: Sendable {
    var user: String
    var key: String
    var event: LedgerEvent
    var at: Int

    static let fields: Set<String> = ["user", "key", "status", "at"]

    init(json: JSON, now: Int) throws(APIError) {
        for member in json.members ?? [] where !Self.fields.contains(member.key) {
            throw APIError(.unprocessableContent, code: "invalid_request",
                           message: "unknown field `\(member.key)`; expected user, key, status, at", field: member.key)
        }
        guard let user = json["user"]?.stringValue, !user.isEmpty else {
            throw APIError(.unprocessableContent, code: "invalid_request", message: "`user` must be a non-empty string (the user id)", field: "user")
        }
        if let problem = UserContext.idProblem(user) {
            throw APIError(.unprocessableContent, code: "invalid_request", message: "`user`: \(problem)", field: "user")
        }
        guard let key = json["key"]?.stringValue, !key.isEmpty else {
            throw APIError(.unprocessableContent, code: "invalid_request", message: "`key` must be a non-empty string (the entry's key)", field: "key")
        }
        guard let status = json["status"]?.stringValue, let event = LedgerEvent(rawValue: status) else {
            throw APIError(.unprocessableContent, code: "invalid_request",
                           message: "`status` must be one of delivered, opened, dismissed, cancelled", field: "status")
        }
        var at = now
        if let value = json["at"], !value.isNull {
            guard let text = value.stringValue, let instant = RFC3339.parse(text) else {
                throw APIError(.unprocessableContent, code: "invalid_request", message: "`at` must be an RFC 3339 instant", field: "at")
            }
            at = instant
        }
        self.user = user
        self.key = key
        self.event = event
        self.at = at
    }
}
#endif
