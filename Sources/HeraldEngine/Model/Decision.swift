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
        /// Sound, quick actions, OS channel, relevance, payload, the category's channel label
        /// and tab badges, when the type or catalog declares any (docs/seeds.md P14, P22, P24).
        public var presentation: Presentation? {
            get { presentationBox?.value }
            set { presentationBox = newValue.map(PresentationBox.init) }
        }
        var presentationBox: PresentationBox?

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
    /// The idempotency key.
    public var key: String? {
        get { storage.key }
        set { unique().key = newValue }
    }
    public var batch: Batch? {
        get { storage.batch }
        set { unique().batch = newValue }
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

    // The fields below are read from the engine's per-type table when the engine made the
    // decision (it records an index or a flag, not a copy of each string, so making and
    // dropping a decision counts no reference for them); changing any of them writes them
    // all out as values first.

    public var type: String {
        get { storage.explicit?.type ?? storage.derived.table!.type.id }
        set { explicit().explicit!.type = newValue }
    }
    public var category: String? {
        get { storage.explicit.map(\.category) ?? storage.derived.table!.type.category }
        set { explicit().explicit!.category = newValue }
    }
    public var channel: String? {
        get { storage.explicit.map(\.channel) ?? storage.derived.channel }
        set { explicit().explicit!.channel = newValue }
    }
    /// The channel to use instead when OS permission is denied (`in_app`).
    public var fallback: String? {
        get { storage.explicit.map(\.fallback) ?? storage.derived.fallback }
        set { explicit().explicit!.fallback = newValue }
    }
    public var notification: Notification? {
        get { storage.explicit.map(\.notification) ?? storage.derived.notification }
        set { explicit().explicit!.notification = newValue }
    }
    public var rule: Rule? {
        get { storage.explicit.map(\.rule) ?? storage.derived.rule }
        set { explicit().explicit!.rule = newValue }
    }
    /// The stages in order. A decision the engine made records its trace as plain data and
    /// builds these steps (with their notes' text) when this is read.
    public var trace: [TraceStep] {
        get { storage.explicit?.trace ?? storage.derived.steps }
        set { explicit().explicit!.trace = newValue }
    }
    public var policy: Policy {
        get { storage.explicit?.policy ?? storage.derived.table!.policy }
        set { explicit().explicit!.policy = newValue }
    }

    /// The fields, shared by copies until one of them is changed (copy on write): a decision
    /// is passed, stored and returned for one reference count.
    private var storage: DecisionStorage

    private mutating func unique() -> DecisionStorage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The storage with the table-backed fields written out, ready to change one.
    private mutating func explicit() -> DecisionStorage {
        let storage = unique()
        if storage.explicit == nil, let table = storage.derived.table {
            let derived = storage.derived
            storage.explicit = DecisionExplicitFields(type: table.type.id, category: table.type.category,
                                        channel: derived.channel, fallback: derived.fallback,
                                        notification: derived.notification, rule: derived.rule,
                                        trace: derived.steps, policy: table.policy)
            storage.derived = .none
        }
        return storage
    }

    public init(
        action: Action, reason: String, deliverAt: Int? = nil, utcOffset: Int = 0, type: String,
        category: String? = nil, channel: String? = nil, key: String? = nil, batch: Batch? = nil,
        fallback: String? = nil, notification: Notification? = nil, rule: Rule? = nil, cap: String? = nil,
        trace: [TraceStep] = [], policy: Policy
    ) {
        storage = DecisionStorage(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, key: key,
                          batch: batch, cap: cap, subject: nil,
                          explicit: DecisionExplicitFields(type: type, category: category, channel: channel, fallback: fallback,
                                             notification: notification, rule: rule, trace: trace, policy: policy),
                          derived: .none)
    }

    /// A decision the engine made: the table-backed fields are read from its `EngineFields`
    /// when asked.
    init(action: Action, reason: String, deliverAt: Int?, utcOffset: Int, key: consuming String?,
         batch: consuming Batch?, cap: String?, subject: String?, table: TypeTable, channelIndex: Int16?,
         usedFallback: Bool, rule: TableCitation?, notifies: Bool, details: consuming [TraceText],
         facts: consuming TraceFacts) {
        storage = DecisionStorage(action: action, reason: reason, deliverAt: deliverAt, utcOffset: utcOffset, key: key,
                          batch: batch, cap: cap, subject: subject, table: table, channelIndex: channelIndex,
                          usedFallback: usedFallback, rule: rule, notifies: notifies, details: details, facts: facts)
    }

    /// Writes the notification parts the engine renders for this request into a decision it
    /// has just made, in place (rendering straight into the storage copies no notification).
    mutating func renderNotification(_ render: (inout Notification) -> Void) {
        render(&unique().derived.rendered)
    }

    /// Writes the trace records of a decision the engine has just made, in place.
    mutating func recordTrace(_ write: (inout TraceRecords) -> Void) {
        write(&unique().derived.log.records)
    }

    public static func == (a: Decision, b: Decision) -> Bool {
        if a.storage === b.storage { return true }
        return a.action == b.action && a.reason == b.reason && a.deliverAt == b.deliverAt && a.utcOffset == b.utcOffset
            && a.type == b.type && a.category == b.category && a.channel == b.channel && a.key == b.key
            && a.batch == b.batch && a.fallback == b.fallback && a.notification == b.notification && a.rule == b.rule
            && a.cap == b.cap && a.subject == b.subject && a.trace == b.trace && a.policy == b.policy
    }
}
