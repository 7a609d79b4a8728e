import HeraldSyntax

/// The engine's answer for one request: what to do, why, and the trace of how it got there.
///
/// `json()` renders it in the contract's shape (see `docs/decisions.md`); equal
/// decisions give byte-identical text.
public struct Decision: Sendable, Equatable {
    public enum Action: String, Sendable, Hashable, CaseIterable {
        case schedule, suppress, batch
    }

    /// Where a batched notification went: its group, the batch's key and when it flushes.
    public struct Batch: Sendable, Equatable {
        public var group: String
        public var key: String
        /// Seconds since the Unix epoch (UTC).
        public var flushAt: Int

        public init(group: String, key: String, flushAt: Int) {
            self.group = group
            self.key = key
            self.flushAt = flushAt
        }
    }

    /// What the device shows.
    public struct Notification: Sendable, Equatable {
        public var title: String?
        public var subtitle: String?
        public var body: String?
        /// The lock-screen-safe body.
        public var lockscreen: String?
        /// The rendered deep link.
        public var link: String?
        public var threadId: String?
        /// `passive`, `active`, `timeSensitive` or `critical`.
        public var interruptionLevel: String?
        public var badge: Int?

        public init(title: String? = nil, subtitle: String? = nil, body: String? = nil, lockscreen: String? = nil, link: String? = nil,
                    threadId: String? = nil, interruptionLevel: String? = nil, badge: Int? = nil)
        {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.lockscreen = lockscreen
            self.link = link
            self.threadId = threadId
            self.interruptionLevel = interruptionLevel
            self.badge = badge
        }
    }

    /// The rule that decided, with its place in the YAML.
    public struct Rule: Sendable, Equatable {
        public var id: String {
            get { citation.id ?? "" }
            set { citation = Citation(id: newValue, source: citation.source) }
        }
        /// `path:line:col`.
        public var source: String {
            get { citation.source ?? "" }
            set { citation = Citation(id: citation.id, source: newValue) }
        }
        /// Both, shared with the engine's tables (formatted once per bundle).
        var citation: Citation

        public init(id: String, source: String) {
            citation = Citation(id: id, source: source)
        }

        init(id: String, span: SourceSpan) {
            citation = Citation(id: id, span: span)
        }

        init(citation: Citation) {
            self.citation = citation
        }

        public static func == (a: Rule, b: Rule) -> Bool { a.id == b.id && a.source == b.source }
    }

    /// Which policy decided: its name and the digest of its compiled form.
    public struct Policy: Sendable, Equatable {
        public var name: String
        public var digest: String

        public init(name: String, digest: String) {
            self.name = name
            self.digest = digest
        }
    }

    /// Schedule, suppress or batch.
    public var action: Action {
        get { storage.action }
        set { unique().action = newValue }
    }
    /// A reason code: built-in (`on_time`, `quiet_hours`, `rate_limited`, …) or the catalog's.
    public var reason: String {
        get { storage.reason }
        set { unique().reason = newValue }
    }
    /// When to deliver (schedule) or when the batch flushes (batch), seconds since the epoch.
    public var deliverAt: Int? {
        get { storage.deliverAt }
        set { unique().deliverAt = newValue }
    }
    /// The user's UTC offset at `deliverAt`, in seconds east, for `localDeliverAt`.
    public var utcOffset: Int {
        get { storage.utcOffset }
        set { unique().utcOffset = newValue }
    }
    public var type: String {
        get { storage.type }
        set { unique().type = newValue }
    }
    public var category: String? {
        get { storage.category }
        set { unique().category = newValue }
    }
    public var channel: String? {
        get { storage.channel }
        set { unique().channel = newValue }
    }
    /// The idempotency key.
    public var key: String? {
        get { storage.key }
        set { unique().key = newValue }
    }
    public var batch: Batch? {
        get { storage.batch }
        set { unique().batch = newValue }
    }
    /// The channel to use instead when OS permission is denied (`in_app`).
    public var fallback: String? {
        get { storage.fallback }
        set { unique().fallback = newValue }
    }
    public var notification: Notification? {
        get { storage.notification }
        set { unique().notification = newValue }
    }
    public var rule: Rule? {
        get { storage.rule }
        set { unique().rule = newValue }
    }
    /// The id of the cap that decided, when one did.
    public var cap: String? {
        get { storage.cap }
        set { unique().cap = newValue }
    }
    /// What per-subject caps counted this notification by: the type's `subject` template, else
    /// the request's `subject` (store it with the ledger entry).
    public var subject: String? {
        get { storage.subject }
        set { unique().subject = newValue }
    }
    /// The stages in order. A decision the engine made records its trace as plain data and
    /// builds these steps (with their notes' text) when this is read.
    public var trace: [TraceStep] {
        get { storage.log?.steps ?? storage.trace }
        set {
            let storage = unique()
            storage.trace = newValue
            storage.log = nil
        }
    }
    public var policy: Policy {
        get { storage.policy }
        set { unique().policy = newValue }
    }

    /// The fields, shared by copies until one of them is changed (copy on write): a decision
    /// is passed, stored and returned for one reference count.
    private var storage: Storage

    private final class Storage: @unchecked Sendable {
        // Written only through `unique()`: a shared storage is never changed.
        var action: Action
        var reason: String
        var deliverAt: Int?
        var utcOffset: Int
        var type: String
        var category: String?
        var channel: String?
        var key: String?
        var batch: Batch?
        var fallback: String?
        var notification: Notification?
        var rule: Rule?
        var cap: String?
        var subject: String?
        /// The trace as given (when `log` is nil).
        var trace: [TraceStep]
        /// The trace as the engine recorded it.
        var log: TraceLog?
        var policy: Policy

        init(action: Action, reason: String, deliverAt: Int?, utcOffset: Int, type: String, category: String?,
             channel: String?, key: String?, batch: Batch?, fallback: String?, notification: Notification?,
             rule: Rule?, cap: String?, subject: String?, trace: [TraceStep], log: TraceLog?, policy: Policy) {
            self.action = action
            self.reason = reason
            self.deliverAt = deliverAt
            self.utcOffset = utcOffset
            self.type = type
            self.category = category
            self.channel = channel
            self.key = key
            self.batch = batch
            self.fallback = fallback
            self.notification = notification
            self.rule = rule
            self.cap = cap
            self.subject = subject
            self.trace = trace
            self.log = log
            self.policy = policy
        }

        func copy() -> Storage {
            Storage(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, type: type,
                    category: category, channel: channel, key: key, batch: batch, fallback: fallback,
                    notification: notification, rule: rule, cap: cap, subject: subject, trace: trace, log: log,
                    policy: policy)
        }
    }

    /// Sets the notification by filling an empty one in place (the engine renders copy
    /// straight into the decision's storage).
    mutating func withNotification(_ fill: (inout Notification) -> Void) {
        var notification = Notification()
        fill(&notification)
        unique().notification = consume notification
    }

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    public init(
        action: Action, reason: String, deliverAt: Int? = nil, utcOffset: Int = 0, type: String,
        category: String? = nil, channel: String? = nil, key: String? = nil, batch: Batch? = nil,
        fallback: String? = nil, notification: Notification? = nil, rule: Rule? = nil, cap: String? = nil,
        trace: [TraceStep] = [], policy: Policy
    ) {
        self.init(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, type: type,
                  category: category, channel: channel, key: key, batch: batch, fallback: fallback,
                  notification: notification, rule: rule, cap: cap, subject: nil, trace: trace, log: nil, policy: policy)
    }

    /// Every field at once (the engine builds a decision in one step); the trace is `log`
    /// when given, else `trace`.
    init(
        action: Action, reason: String, deliverAt: Int?, utcOffset: Int, type: String,
        category: String?, channel: String?, key: String?, batch: Batch?,
        fallback: String?, notification: Notification?, rule: Rule?, cap: String?,
        subject: String?, trace: [TraceStep], log: TraceLog?, policy: Policy
    ) {
        storage = Storage(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, type: type,
                          category: category, channel: channel, key: key, batch: batch, fallback: fallback,
                          notification: notification, rule: rule, cap: cap, subject: subject, trace: trace,
                          log: log, policy: policy)
    }

    public static func == (a: Decision, b: Decision) -> Bool {
        if a.storage === b.storage { return true }
        let x = a.storage, y = b.storage
        return x.action == y.action && x.reason == y.reason && x.deliverAt == y.deliverAt && x.utcOffset == y.utcOffset
            && x.type == y.type && x.category == y.category && x.channel == y.channel && x.key == y.key
            && x.batch == y.batch && x.fallback == y.fallback && x.notification == y.notification && x.rule == y.rule
            && x.cap == y.cap && x.subject == y.subject && a.trace == b.trace && x.policy == y.policy
    }

    /// The decision in the contract's shape. Absent values are left out rather than written
    /// as `null`; `deliverAt`/`localDeliverAt` appear only for `schedule` and `batch`.
    public func json() -> JSON {
        var members: [JSON.Member] = []
        func put(_ key: String, _ value: JSON?) {
            if let value { members.append(JSON.Member(key, value)) }
        }
        put("action", .string(action.rawValue))
        put("reason", .string(reason))
        put("type", .string(type))
        if action != .suppress, let deliverAt {
            put("deliverAt", .string(ContractTime.format(deliverAt)))
            put("localDeliverAt", .string(ContractTime.format(deliverAt, offsetSeconds: utcOffset)))
        }
        put("category", category.map(JSON.string))
        put("channel", channel.map(JSON.string))
        put("key", key.map(JSON.string))
        if action != .suppress { put("subject", subject.map(JSON.string)) }
        put("batch", batch.map { batch in
            ["group": .string(batch.group), "key": .string(batch.key), "flushAt": .string(ContractTime.format(batch.flushAt))]
        })
        put("fallback", fallback.map(JSON.string))
        put("notification", notification.map(Self.json(of:)))
        put("rule", rule.map { ["id": .string($0.id), "source": .string($0.source)] })
        put("cap", cap.map(JSON.string))
        put("trace", .array(trace.map { $0.json() }))
        put("policy", ["name": .string(policy.name), "digest": .string(policy.digest)])
        return .object(members)
    }

    private static func json(of notification: Notification) -> JSON {
        var members: [JSON.Member] = []
        func put(_ key: String, _ value: String?) {
            if let value { members.append(JSON.Member(key, .string(value))) }
        }
        put("title", notification.title)
        put("subtitle", notification.subtitle)
        put("body", notification.body)
        put("lockscreen", notification.lockscreen)
        put("link", notification.link)
        put("threadId", notification.threadId)
        put("interruptionLevel", notification.interruptionLevel)
        if let badge = notification.badge { members.append(JSON.Member("badge", .int(badge))) }
        return .object(members)
    }
}
