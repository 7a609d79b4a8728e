// A closed family: a notification type and the parts of its declaration (params, timing and
// its anchor and quiet-hours treatment, dedupe, copy, link), which exist only inside a
// `NotificationType`.
public import HeraldSyntax

/// A declared parameter of a notification type's trigger.
public struct Param: Sendable, Hashable {
    public var name: String
    public var type: ValueType
    /// Must not reach the lock screen.
    public var sensitive: Bool
    public var description: String?
    public var span: SourceSpan

    public init(name: String, type: ValueType, sensitive: Bool, description: String?, span: SourceSpan) {
        self.name = name
        self.type = type
        self.sensitive = sensitive
        self.description = description
        self.span = span
    }
}

/// What a type's delivery time is aligned to (`timing.at`).
public enum TimingAnchor: Sendable, Hashable {
    case immediate
    case reminderTime
    /// `local("09:00")`: seconds since local midnight.
    case localTime(Int)
    /// `param(name)`: an instant param.
    case param(String)
    /// `state(path)`: an instant field of the state schema.
    case state([String])
    /// `local(state(path))` or `local(state(path) ?? "18:00")`: the local time of day held by a
    /// `time` field of the state schema (a time learned from usage), or `fallback` (seconds
    /// since local midnight) when an optional field is absent.
    case localState([String], fallback: Int?)
}

/// A type's treatment of quiet hours (`timing.quietHours`, `quietHours.during`). `passive`
/// delivers inside quiet hours at once, quietly (interruption `passive`, no sound; reason
/// `quiet_hours_passive`, docs/seeds.md P12).
public enum QuietHoursTreatment: String, Sendable, Hashable, CaseIterable {
    case `defer`, bypass, suppress, passive
}

/// The instant at which a type's time-dependent conditions are judged (`timing.judgedAt`):
/// `since()`, `local.date`/`weekday`/`time` and the windows of `sent(…)`. docs/time.md
/// ("When a rule is judged").
public enum JudgedAt: String, Sendable, Hashable, CaseIterable {
    /// `since()` and `sent(…)` at `now`, `local.*` at the trigger (the default).
    case trigger
    /// All of them at the candidate delivery instant: the aligned instant moved out of quiet
    /// hours (before any cap's deferral).
    case delivery
}

/// What happens to a trigger whose aligned instant is already past when it is decided
/// (`timing.past`); distinct from `expires`, which bounds a deferral.
public enum PastTreatment: String, Sendable, Hashable, CaseIterable {
    /// Deliver at once, at `now` (the default).
    case deliver
    /// Suppress with the built-in reason `missed`.
    case skip
}

/// `timing:` of a type.
public struct Timing: Sendable, Hashable {
    public var at: TimingAnchor
    /// Seconds added to the aligned instant; may be negative.
    public var offset: Int
    /// Prefer the user's next training day at reminder time.
    public var trainingDays: Bool
    /// Seconds after the trigger past which deferral makes it `expired`.
    public var expires: Int?
    /// Overrides the policy's `quietHours.during`.
    public var quietHours: QuietHoursTreatment?
    /// When time-dependent conditions are judged.
    public var judgedAt: JudgedAt
    /// A trigger whose aligned instant is before `now`.
    public var past: PastTreatment
    /// `reminder_time` / `local(…)` align to that time on the trigger's own local date, even
    /// when it has passed (then `past` decides), instead of its next occurrence.
    public var sameDay: Bool
    /// nil when the type declares no `timing` (the default `{ at: immediate }`).
    public var span: SourceSpan?

    public init(at: TimingAnchor = .immediate, offset: Int = 0, trainingDays: Bool = false, expires: Int? = nil,
                quietHours: QuietHoursTreatment? = nil, judgedAt: JudgedAt = .trigger, past: PastTreatment = .deliver,
                span: SourceSpan? = nil) {
        self.judgedAt = judgedAt
        self.past = past
        self.sameDay = false
        self.at = at
        self.offset = offset
        self.trainingDays = trainingDays
        self.expires = expires
        self.quietHours = quietHours
        self.span = span
    }
}

/// `dedupe:` of a type.
public struct Dedupe: Sendable, Hashable {
    /// nil: the idempotency key.
    public var key: MessageTemplate?
    /// Seconds; nil: the policy's `dedupe.window`, or the key alone (forever).
    public var window: Int?
    public var span: SourceSpan
    /// `by: content`: the key is the type and a fingerprint of the rendered copy and link, so
    /// the same content is a duplicate whatever the params (docs/seeds.md P20).
    public var byContent = false

    public init(key: MessageTemplate?, window: Int?, span: SourceSpan) {
        self.key = key
        self.window = window
        self.span = span
    }
}

/// `copy:` of a type, a batch group or a digest.
public struct Copy: Sendable, Hashable {
    public var title: MessageTemplate?
    public var subtitle: MessageTemplate?
    public var body: MessageTemplate?
    /// The lock-screen-safe body.
    public var lockscreen: MessageTemplate?
    public var span: SourceSpan

    public init(title: MessageTemplate?, subtitle: MessageTemplate?, body: MessageTemplate?,
                lockscreen: MessageTemplate?, span: SourceSpan) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.lockscreen = lockscreen
        self.span = span
    }

    /// The templates present, with their key.
    public var fields: [(key: String, template: MessageTemplate)] {
        [("title", title), ("subtitle", subtitle), ("body", body), ("lockscreen", lockscreen)]
            .compactMap { key, template in template.map { (key, $0) } }
    }
}

/// `link:`: a route and the bindings of its params.
public struct Link: Sendable, Hashable {
    public struct Binding: Sendable, Hashable {
        public var param: String
        /// A literal or a template over the owner's params.
        public var value: MessageTemplate
        public var span: SourceSpan

        public init(param: String, value: MessageTemplate, span: SourceSpan) {
            self.param = param
            self.value = value
            self.span = span
        }
    }

    public var route: String
    /// In declaration order.
    public var bindings: [Binding]
    public var span: SourceSpan

    public init(route: String, bindings: [Binding], span: SourceSpan) {
        self.route = route
        self.bindings = bindings
        self.span = span
    }
}

/// One entry of `types:`.
public struct NotificationType: Sendable {
    public var id: String
    public var category: String
    /// Preference order.
    public var channels: [String]
    public var fallback: String?
    public var defaultOn: Bool
    public var description: String?
    /// In declaration order.
    public var params: [Param]
    /// `computed:` values, in declaration order (none: the type pays nothing for them).
    public var computed: [ComputedValue] = []
    /// nil: always eligible.
    public var eligible: CompiledExpression?
    public var timing: Timing
    /// The type's own caps (scope defaults to `type`), ids defaulting to `<type>.caps[<n>]`.
    public var caps: [Cap]
    /// Evaluated in order; ids defaulting to `<type>.suppress[<n>]`.
    public var suppress: [SuppressRule]
    public var dedupe: Dedupe?
    /// nil: `{type}:{subject}:{localDate}`.
    public var idempotencyKey: MessageTemplate?
    /// nil: the request's `subject`.
    public var subject: MessageTemplate?
    public var critical: Bool
    public var locked: Bool
    /// `first`: one decision on the first channel that passes; `all`: one decision per
    /// channel (`Engine.decideAll`, docs/seeds.md P1).
    public var delivery: Delivery = .first
    /// `sound`, `actions`, `osChannel`, `relevance`, `payload` (over the category's, key by key).
    public var render = RenderKeys()
    public var silent: Bool
    /// nil: the category's.
    public var interruption: Interruption?
    /// nil: the category's.
    public var threadId: MessageTemplate?
    /// nil: from the policy's `priorities`.
    public var priority: Int?
    /// nil only for silent types (or when it did not compile).
    public var copy: Copy?
    public var link: Link?
    /// The type's name (its key under `types`).
    public var span: SourceSpan
    /// Where the keys a decision cites (`citedKeys`) are written, the key and not its value, for
    /// those the type declares; keys of `timing` and `dedupe` by dotted path (`timing.expires`).
    public var keySpans: [String: SourceSpan]

    /// The keys of a type that decide a stage, which `keySpans` records (only these: a large
    /// catalog keeps every type's spans).
    public static let citedKeys: Set<String> = [
        "eligible", "channels", "fallback", "default", "idempotencyKey", "dedupe", "dedupe.key",
        "timing", "timing.expires", "timing.quietHours", "timing.past",
    ]

    public init(id: String, category: String, channels: [String], fallback: String?, defaultOn: Bool,
                description: String?, params: [Param], eligible: CompiledExpression?, timing: Timing,
                caps: [Cap], suppress: [SuppressRule], dedupe: Dedupe?, idempotencyKey: MessageTemplate?,
                subject: MessageTemplate?, critical: Bool, locked: Bool, silent: Bool,
                interruption: Interruption?, threadId: MessageTemplate?, priority: Int?, copy: Copy?,
                link: Link?, span: SourceSpan, keySpans: [String: SourceSpan] = [:]) {
        self.id = id
        self.category = category
        self.channels = channels
        self.fallback = fallback
        self.defaultOn = defaultOn
        self.description = description
        self.params = params
        self.eligible = eligible
        self.timing = timing
        self.caps = caps
        self.suppress = suppress
        self.dedupe = dedupe
        self.idempotencyKey = idempotencyKey
        self.subject = subject
        self.critical = critical
        self.locked = locked
        self.silent = silent
        self.interruption = interruption
        self.threadId = threadId
        self.priority = priority
        self.copy = copy
        self.link = link
        self.span = span
        self.keySpans = keySpans
    }

    public func param(_ name: String) -> Param? {
        params.first { $0.name == name }
    }

    /// The names a template of the type binds to request values: the params, then the
    /// computed values (the order of their slots in a decision).
    public var templateNames: [String] { params.map(\.name) + computed.map(\.name) }

    /// Param name → type, as expressions and templates see them.
    public var paramTypes: [String: ValueType] {
        Dictionary(params.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
    }
}

/// How many of a type's channels one trigger delivers on (`delivery:`).
public enum Delivery: String, Sendable, CaseIterable {
    /// The first channel whose toggles and permission let it through (the default).
    case first
    /// Every channel of `channels`, each decided on its own (its toggles, permission and key).
    case all
}
