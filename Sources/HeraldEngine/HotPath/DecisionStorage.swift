/// A `Decision`'s fields, shared by copies of the decision until one of them changes a field
/// (copy on write, `Decision.unique()`).
///
/// Invariant: a storage is written only through `Decision`'s setters after `unique()` made
/// it unique, and `derived` is written in place only while the engine renders a decision it
/// has just made (its only holder). That is why `derived` skips the runtime's exclusivity
/// checks, and why this file lives in the hot path's folder.

/// The table-backed fields as values: a decision built by the public initializer, or one
/// the engine made after one of these fields was changed. A class, so that a decision
/// without them (every decision the engine makes) holds a plain nil reference.
final class DecisionExplicitFields: @unchecked Sendable {
    // Written only through `explicit()`, on a storage `unique()` made unique.
    var type: String
    var category: String?
    var channel: String?
    var fallback: String?
    var notification: Decision.Notification?
    var rule: Decision.Rule?
    var trace: [TraceStep]
    var policy: Decision.Policy

    init(type: String, category: String?, channel: String?, fallback: String?, notification: Decision.Notification?,
         rule: Decision.Rule?, trace: [TraceStep], policy: Decision.Policy) {
        self.type = type
        self.category = category
        self.channel = channel
        self.fallback = fallback
        self.notification = notification
        self.rule = rule
        self.trace = trace
        self.policy = policy
    }

    func copy() -> DecisionExplicitFields {
        DecisionExplicitFields(type: type, category: category, channel: channel, fallback: fallback, notification: notification,
                 rule: rule, trace: trace, policy: policy)
    }
}

/// The fields of a decision. Nothing here is an optional struct: destroying one of those
/// goes through the type's metadata at run time.
final class DecisionStorage: @unchecked Sendable {
    // Written only through `unique()`: a shared storage is never changed.
    var action: Decision.Action
    var reason: String
    var deliverAt: Int?
    var utcOffset: Int
    var key: String?
    var batch: Decision.Batch?
    var cap: String?
    var subject: String?
    /// Set: the table-backed fields are these values, and `derived` is `.none`.
    var explicit: DecisionExplicitFields?
    /// Written in place while the engine renders a new decision (`renderNotification`),
    /// which is its only holder then; no access overlaps another, so the runtime's
    /// exclusivity checks (two calls per access) are skipped.
    @exclusivity(unchecked) var derived: EngineFields

    init(action: Decision.Action, reason: String, deliverAt: Int?, utcOffset: Int, key: String?, batch: Decision.Batch?,
         cap: String?, subject: String?, explicit: DecisionExplicitFields?, derived: consuming EngineFields) {
        self.action = action
        self.reason = reason
        self.deliverAt = deliverAt
        self.utcOffset = utcOffset
        self.key = key
        self.batch = batch
        self.cap = cap
        self.subject = subject
        self.explicit = explicit
        self.derived = derived
    }

    /// An engine's decision: its fields (the run then copies its trace records in place,
    /// once, `Decision.recordTrace`).
    convenience init(action: Decision.Action, reason: String, deliverAt: Int?, utcOffset: Int, key: consuming String?,
                     batch: consuming Decision.Batch?, cap: String?, subject: String?, table: TypeTable, channelIndex: Int16?,
                     usedFallback: Bool, rule: TableCitation?, notifies: Bool,
                     details: consuming [TraceText], facts: consuming TraceFacts) {
        self.init(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, key: key, batch: batch,
                  cap: cap, subject: subject, explicit: nil,
                  derived: EngineFields(table: table, channelIndex: channelIndex, usedFallback: usedFallback,
                                        ruleCitation: rule, notifies: notifies, rendered: Decision.Notification(),
                                        log: TraceLog(records: TraceRecords(), details: details, facts: facts)))
    }

    func copy() -> DecisionStorage {
        DecisionStorage(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, key: key, batch: batch,
                cap: cap, subject: subject, explicit: explicit?.copy(), derived: derived)
    }
}
