/// A notification the caller has scheduled on the device and that has not been delivered yet:
/// an entry of a reconcile request's `pending` list.
///
/// Its **identity** is `key` (the idempotency key the decision carried, or a batch's key); its
/// **content** is what the device would show and when: `deliverAt`, and the copy, link and
/// thread id when the caller recorded them. `Engine.reconcile` keeps a pending entry whose
/// identity and content the plan still wants, updates one whose identity it wants with other
/// content, and cancels one whose identity it no longer wants.
public struct PendingEntry: Sendable, Hashable {
    public var key: String
    public var type: String
    /// When it is scheduled to be delivered, in seconds since the Unix epoch (UTC).
    public var deliverAt: Int
    public var subject: String?
    public var channel: String?
    /// The batch key, when the entry is a batch's combined notification or one of its members.
    public var batchKey: String?
    /// The content the caller recorded; a field left nil is not compared.
    public var title: String?
    public var body: String?
    public var link: String?
    public var threadId: String?

    public init(key: String, type: String, deliverAt: Int, subject: String? = nil, channel: String? = nil,
                batchKey: String? = nil, title: String? = nil, body: String? = nil, link: String? = nil,
                threadId: String? = nil)
    {
        self.key = key
        self.type = type
        self.deliverAt = deliverAt
        self.subject = subject
        self.channel = channel
        self.batchKey = batchKey
        self.title = title
        self.body = body
        self.link = link
        self.threadId = threadId
    }

    /// A `scheduled` ledger entry as a pending entry (identity and time; no recorded content).
    public init(_ entry: HistoryEntry) {
        self.init(key: entry.key, type: entry.type, deliverAt: entry.deliverAt, subject: entry.subject,
                  channel: entry.channel, batchKey: entry.batchKey)
    }

    /// The content fields of `decision` that differ from this entry's, in a fixed order
    /// (`deliverAt`, `channel`, `title`, `body`, `link`, `threadId`); fields this entry does not
    /// record are not compared. Empty when the entry already shows what the decision would.
    public func changes(to decision: Decision) -> [String] {
        var changed: [String] = []
        if deliverAt != decision.deliverAt { changed.append("deliverAt") }
        let n = decision.notification
        let recorded: [(String, String?, String?)] = [
            ("channel", channel, decision.channel), ("title", title, n?.title), ("body", body, n?.body),
            ("link", link, n?.link), ("threadId", threadId, n?.threadId),
        ]
        for (name, mine, theirs) in recorded where mine != nil && mine != theirs { changed.append(name) }
        return changed
    }

}

extension Decision {
    /// The decision as the pending entry a caller stores after scheduling it, content included.
    public func pendingEntry() -> PendingEntry? {
        guard action != .suppress, let key, let deliverAt else { return nil }
        let n = notification
        return PendingEntry(key: key, type: type, deliverAt: deliverAt, subject: subject, channel: channel,
                            batchKey: batch?.key, title: n?.title, body: n?.body, link: n?.link, threadId: n?.threadId)
    }
}
