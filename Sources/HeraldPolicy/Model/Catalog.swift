// A closed family: the sections of a compiled catalog (`app`, `channels` and their kind,
// `categories` and their interruption level, schema fields, `reasons`, `routes`), each read
// only as part of `PolicyBundle`.
public import HeraldSyntax

/// `app:` — the application a catalog describes.
public struct App: Sendable, Hashable {
    public var name: String
    /// The deep-link scheme without `://` (`myapp`).
    public var scheme: String
    public var span: SourceSpan

    public init(name: String, scheme: String, span: SourceSpan) {
        self.name = name
        self.scheme = scheme
        self.span = span
    }
}

/// How a notification can reach the user.
public enum ChannelKind: String, Sendable, Hashable, CaseIterable {
    case local, push, email, sms
    case inApp = "in_app"
}

/// One entry of `channels:`.
public struct Channel: Sendable, Hashable {
    public var name: String
    public var kind: ChannelKind
    /// Delivery needs an OS permission (`system_denied` when denied). Default: `true` for
    /// `local` and `push`, else `false`.
    public var permission: Bool
    /// The user has a master toggle for the channel (`prefs.channels.<name>`).
    public var toggle: Bool
    /// The master toggle's default.
    public var defaultOn: Bool
    public var span: SourceSpan

    public init(name: String, kind: ChannelKind, permission: Bool, toggle: Bool, defaultOn: Bool, span: SourceSpan) {
        self.name = name
        self.kind = kind
        self.permission = permission
        self.toggle = toggle
        self.defaultOn = defaultOn
        self.span = span
    }
}

/// How strongly a notification interrupts (iOS interruption levels).
public enum Interruption: String, Sendable, Hashable, CaseIterable {
    case passive, active, timeSensitive, critical
}

/// One entry of `categories:`: a user-visible toggle group.
public struct Category: Sendable {
    public var name: String
    public var title: String
    public var description: String?
    /// On unless the user turns it off.
    public var defaultOn: Bool
    /// Always on: preferences cannot turn it off.
    public var locked: Bool
    /// Usable only when this bool expression is true (premium gating).
    public var requires: CompiledExpression?
    /// Notification grouping; nil means the category name.
    public var threadId: MessageTemplate?
    /// The default interruption level of its types.
    public var interruption: Interruption
    /// Per-channel defaults of the category toggle, in declaration order.
    public var channels: [(channel: String, on: Bool)]
    /// Channels the category toggle does not stop (`keepChannels`, docs/seeds.md P2): with the
    /// category off, its types still go out on these (Handz §6.3 billing stays in-app).
    public var keepChannels: [String] = []
    /// `sound`, `actions`, `osChannel`, `relevance` of its types (docs/seeds.md P14).
    public var render = RenderKeys()
    /// The category's label on a channel, where it differs from `title` (`channels: { email:
    /// { title: … } }`, docs/seeds.md P22).
    public var channelTitles: [String: String] = [:]
    /// The category's name (its key under `categories`).
    public var span: SourceSpan
    /// Where each key the category declares is written (the key, not its value), by key: a
    /// decision's trace cites `requires` and `default`.
    public var keySpans: [String: SourceSpan]

    public init(name: String, title: String, description: String?, defaultOn: Bool, locked: Bool,
                requires: CompiledExpression?, threadId: MessageTemplate?, interruption: Interruption,
                channels: [(channel: String, on: Bool)], span: SourceSpan, keySpans: [String: SourceSpan] = [:]) {
        self.name = name
        self.title = title
        self.description = description
        self.defaultOn = defaultOn
        self.locked = locked
        self.requires = requires
        self.threadId = threadId
        self.interruption = interruption
        self.channels = channels
        self.span = span
        self.keySpans = keySpans
    }
}

/// A declared field of the `state` or `user` schema, flattened to its dotted path.
public struct SchemaField: Sendable, Hashable {
    /// `["maintenance", "dueToday"]`.
    public var path: [String]
    public var type: ValueType
    public var description: String?
    public var span: SourceSpan

    public init(path: [String], type: ValueType, description: String?, span: SourceSpan) {
        self.path = path
        self.type = type
        self.description = description
        self.span = span
    }
}

/// A suppression reason code: built-in or declared in the catalog's `reasons:`.
public struct Reason: Sendable, Hashable {
    public var code: String
    public var description: String?
    public var isBuiltIn: Bool
    /// Where the catalog declares it; nil for built-in reasons.
    public var span: SourceSpan?

    public init(code: String, description: String?, isBuiltIn: Bool, span: SourceSpan?) {
        self.code = code
        self.description = description
        self.isBuiltIn = isBuiltIn
        self.span = span
    }

    /// The built-in suppression reasons (a closed set), in the order docs/language.md lists them.
    public static let builtIn: [Reason] = [
        ("missing_data", "a param or state field the type needs is absent"),
        ("ineligible", "the type's `eligible` expression is false"),
        ("paused_all", "the user paused all notifications"),
        ("channel_off", "the user turned the channel's master toggle off"),
        ("category_off", "the user turned the category off, or its `requires` is false"),
        ("type_off", "the user turned the type off"),
        ("system_denied", "the OS permission for the channel is denied and there is no fallback"),
        ("duplicate", "the same idempotency or dedupe key was already decided"),
        ("expired", "deferral would deliver it after the type's `expires`"),
        ("missed", "its aligned instant was already past when decided, and the type says `past: skip`"),
        ("rate_limited", "a cap is full and says `over: suppress`"),
        ("cooldown", "a cooldown since the last one in scope has not passed"),
        ("quiet_hours", "inside quiet hours with `during: suppress`"),
        ("muted", "the user muted the subject"),
        ("batched", "held for a batch or digest instead of delivered alone"),
    ].map { Reason(code: $0.0, description: $0.1, isBuiltIn: true, span: nil) }

    public static let builtInCodes: Set<String> = Set(builtIn.map(\.code))

    /// The reasons a `schedule` decision may carry.
    public static let scheduleReasons: [String] = [
        "on_time", "reminder_time", "local_time", "quiet_hours", "quiet_hours_passive", "training_day", "burst_spacing",
    ]
}

/// One entry of `routes:`: a typed deep-link template.
public struct Route: Sendable {
    public var name: String
    /// The compiled `url`; nil when it did not compile.
    public var url: RouteTemplate?
    /// The declared params, in declaration order.
    public var params: [(name: String, type: ValueType)]
    public var span: SourceSpan

    public init(name: String, url: RouteTemplate?, params: [(name: String, type: ValueType)], span: SourceSpan) {
        self.name = name
        self.url = url
        self.params = params
        self.span = span
    }

    public func paramType(_ name: String) -> ValueType? {
        params.first { $0.name == name }?.type
    }
}
