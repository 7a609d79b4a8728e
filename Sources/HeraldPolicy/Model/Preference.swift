// A closed family: the declared preferences of a catalog (`prefs:`, docs/seeds.md P13) and the
// policy's plan limits (`plan:`, P19), two small values read only as part of `PolicyBundle`.
public import HeraldSyntax

/// One entry of the catalog's `prefs:`: an app preference with a type, a default and the
/// values a request may state (`prefs: { sound: { type: bool, default: true } }`), or the
/// built-in `maxPerDay` narrowed to `allowed` values.
public struct DeclaredPreference: Sendable {
    public var name: String
    /// `bool`, `int`, `string` or an enum; `int` for `maxPerDay`.
    public var type: ValueType
    /// The value when the request leaves the preference out; nil for `maxPerDay`, whose
    /// default is the policy's `defaults.maxPerDay`.
    public var defaultValue: Value?
    /// The only values a request may state (a request error `H0256` otherwise); nil: any
    /// value of the type.
    public var allowed: [Value]?
    public var description: String?
    /// The preference's name (its key under `prefs`).
    public var span: SourceSpan

    /// True for the built-in `maxPerDay`, which a catalog may declare only to list `allowed`.
    public var isBuiltin: Bool { defaultValue == nil }

    public init(name: String, type: ValueType, defaultValue: Value?, allowed: [Value]?, description: String?, span: SourceSpan) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.allowed = allowed
        self.description = description
        self.span = span
    }
}

/// `plan:` — what `plan` returns at most: deliveries up to `horizon` after `now` and at most
/// `maxPending` of them (the OS's pending-notification limit). A plan request's own
/// `horizon` is bounded by the policy's (docs/decisions.md § Plan).
public struct PlanLimits: Sendable, Hashable {
    /// Seconds; nil: the plan request's horizon (7 days when it gives none).
    public var horizon: Int?
    /// nil: no limit.
    public var maxPending: Int?
    /// The section's key; nil when the policy has no `plan`.
    public var span: SourceSpan?

    public init(horizon: Int? = nil, maxPending: Int? = nil, span: SourceSpan? = nil) {
        self.horizon = horizon
        self.maxPending = maxPending
        self.span = span
    }
}
