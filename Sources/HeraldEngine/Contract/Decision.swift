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

    public var action: Action
    /// A reason code: built-in (`on_time`, `quiet_hours`, `rate_limited`, …) or the catalog's.
    public var reason: String
    /// When to deliver (schedule) or when the batch flushes (batch), seconds since the epoch.
    public var deliverAt: Int?
    /// The user's UTC offset at `deliverAt`, in seconds east, for `localDeliverAt`.
    public var utcOffset: Int
    public var type: String
    public var category: String?
    public var channel: String?
    /// The idempotency key.
    public var key: String?
    public var batch: Batch?
    /// The channel to use instead when OS permission is denied (`in_app`).
    public var fallback: String?
    public var notification: Notification?
    public var rule: Rule?
    /// The id of the cap that decided, when one did.
    public var cap: String?
    /// What per-subject caps counted this notification by: the type's `subject` template, else
    /// the request's `subject` (store it with the ledger entry).
    public var subject: String?
    public var trace: [TraceStep]
    public var policy: Policy

    public init(
        action: Action, reason: String, deliverAt: Int? = nil, utcOffset: Int = 0, type: String,
        category: String? = nil, channel: String? = nil, key: String? = nil, batch: Batch? = nil,
        fallback: String? = nil, notification: Notification? = nil, rule: Rule? = nil, cap: String? = nil,
        trace: [TraceStep] = [], policy: Policy
    ) {
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
        self.trace = trace
        self.policy = policy
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
