/// One notification the caller already knows about: scheduled, delivered, or acted on.
///
/// The ledger the engine counts caps, cooldowns and duplicates against is a list of these.
public struct HistoryEntry: Sendable, Hashable {
    /// What happened to a notification, as reported by the caller.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case scheduled, delivered, opened, dismissed, cancelled

        /// The statuses that count against caps unless a cap says otherwise; `cancelled`
        /// never counts.
        public static let counting: Set<Status> = [.scheduled, .delivered, .opened, .dismissed]
    }

    /// The idempotency key the decision carried (`N-MAINT-DUE-TODAY:u1:2026-03-08`).
    public var key: String
    /// The notification type id.
    public var type: String
    /// What per-subject caps count by (an item, a contact), when the type has one.
    public var subject: String?
    /// The channel it went out on, when known.
    public var channel: String?
    /// When it was (or will be) delivered, in seconds since the Unix epoch (UTC).
    public var deliverAt: Int
    public var status: Status
    /// The batch it was delivered in; members of one batch count once against global caps.
    public var batchKey: String?

    public init(key: String, type: String, subject: String? = nil, channel: String? = nil,
                deliverAt: Int, status: Status, batchKey: String? = nil)
    {
        self.key = key
        self.type = type
        self.subject = subject
        self.channel = channel
        self.deliverAt = deliverAt
        self.status = status
        self.batchKey = batchKey
    }
}
