public import HeraldEngine
/// A `reconcile` request as read from JSON: a plan request (docs/decisions.md § Plan) plus the
/// notifications the caller has scheduled and not yet delivered.
///
/// ```json
/// { "now": "…", "horizon": "7d", "user": {...}, "prefs": {...}, "state": {...},
///   "history": [ { "key", "type", "deliverAt", "status": "delivered" }, … ],
///   "candidates": [ { "type", "at", "params", "subject" }, … ],
///   "pending": [ { "key", "type", "deliverAt", "subject"?, "channel"?, "batch"?,
///                  "title"?, "body"?, "link"?, "threadId"? }, … ] }
/// ```
/// `history` is what already happened (`delivered`, `opened`, `dismissed`, `cancelled`); a
/// `scheduled` entry there is an error, since scheduled-and-not-delivered is what `pending`
/// says and the plan replaces it.
public struct ReconcileRequest: Sendable {
    public var plan: PlanRequest
    public var pending: [PendingEntry]

    public init(plan: PlanRequest, pending: [PendingEntry]) {
        self.plan = plan
        self.pending = pending
    }

    static let pendingFields = ["key", "type", "deliverAt", "subject", "channel", "batch", "title", "body", "link", "threadId"]

    /// Reads a reconcile request; every problem is reported (`pending[i].…`, `history[i].status`,
    /// and the plan request's own paths).
    public static func parse(_ text: String) throws(RequestErrors) -> ReconcileRequest {
        try parse(json: RequestErrors.parseJSON(text, limits: .standard))
    }

    /// Reads a reconcile request from parsed JSON (see `parse(_:)`).
    public static func parse(json: JSON) throws(RequestErrors) -> ReconcileRequest {
        var reader = RequestReader()
        var pending: [PendingEntry] = []
        if let list = json["pending"] {
            if let elements = list.elements {
                for (index, element) in elements.enumerated() {
                    if let entry = reader.pendingEntry(element, at: "pending[\(index)]") { pending.append(entry) }
                }
            } else {
                reader.mismatch("pending", "an array", list)
            }
        } else if json.members != nil {
            reader.fail("pending", "missing required field; write `[]` when nothing is scheduled")
        }
        for (index, entry) in (json["history"]?.elements ?? []).enumerated() where entry["status"]?.stringValue == "scheduled" {
            reader.fail("history[\(index)].status",
                        "a scheduled entry belongs in `pending`: `history` holds what already happened, and the plan replaces what is pending")
        }
        let plan = reader.planRequest(json, also: ["pending"])
        guard reader.errors.isEmpty, let plan else { throw reader.errors }
        return ReconcileRequest(plan: plan, pending: pending)
    }
}

extension RequestReader {
    mutating func pendingEntry(_ json: JSON, at path: String) -> PendingEntry? {
        guard object(json, at: path, known: ReconcileRequest.pendingFields) != nil else { return nil }
        let key = string(json["key"], at: join(path, "key"))
        let type = string(json["type"], at: join(path, "type"))
        let deliverAt = instant(json["deliverAt"], at: join(path, "deliverAt"))
        var optional: [String: String] = [:]
        for field in ["subject", "channel", "batch", "title", "body", "link", "threadId"] {
            if let value = optionalString(json[field], at: join(path, field)) { optional[field] = value }
        }
        guard let key, let type, let deliverAt else { return nil }
        return PendingEntry(key: key, type: type, deliverAt: deliverAt, subject: optional["subject"], channel: optional["channel"],
                            batchKey: optional["batch"], title: optional["title"], body: optional["body"],
                            link: optional["link"], threadId: optional["threadId"])
    }
}
