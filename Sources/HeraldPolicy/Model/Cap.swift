// A closed family: a cap and the parts of its declaration (scope, window, limit, what to do
// over it, which statuses it counts), which exist only inside a `Cap`.
public import HeraldSyntax

/// What a cap counts together.
public enum CapScope: String, Sendable, Hashable, CaseIterable {
    case global, category, type, channel, subject
}

/// The window a cap counts over (`per:`).
public enum CapWindow: Sendable, Hashable {
    /// The user's local calendar day.
    case day
    /// The local day and the six before it.
    case week
    /// The seven local days before the local day (today not included): Crescender's "last 7
    /// days as the 7 previous local days".
    case previousSevenDays
    /// The local calendar week (Monday first).
    case calendarWeek
    /// The local calendar month.
    case month
    /// The local calendar year (a birthday "once a year").
    case year
    case lifetime
    /// A rolling duration, in seconds.
    case duration(Int)
}

/// A cap's limit: a fixed number or an int expression over `prefs.*`/`user.*` (a `scope: subject`
/// cap's may also read `state.*` and `subject`).
public enum CapLimit: Sendable {
    case fixed(Int)
    case expression(CompiledExpression)
}

/// What happens to a notification over a cap.
public enum CapOverflow: Sendable, Hashable {
    /// Suppressed with `rate_limited`.
    case suppress
    /// Deferred to the next free slot (`burst_spacing`).
    case `defer`
    /// Held for the named batch group.
    case batch(String)
    /// Held for the named digest.
    case digest(String)
}

/// A ledger status a cap counts (`counts:`).
public enum CountedStatus: String, Sendable, Hashable, CaseIterable {
    case scheduled, delivered, opened, dismissed, cancelled

    public static let defaults: [CountedStatus] = [.scheduled, .delivered, .opened, .dismissed]
}

/// A cap or cooldown, from a type's `caps`, the policy's `caps` or `cooldowns`.
public struct Cap: Sendable {
    /// Declared, or `<type>.caps[<n>]` / `caps[<n>]` / `cooldowns[<n>]` (0-based).
    public var id: String
    /// The type that declares it; nil for policy caps.
    public var owner: String?
    public var scope: CapScope
    /// Type, category or channel names the cap applies to and counts; empty: all.
    public var match: [String]
    /// Type or category names the cap applies to (it still counts all of its scope); empty: all.
    public var only: [String]
    /// nil for a pure cooldown.
    public var max: CapLimit?
    /// nil for a pure cooldown.
    public var per: CapWindow?
    /// Seconds since the last one in scope.
    public var cooldown: Int?
    /// The cooldown when it is written in whole days (`3d`, `2w`): that many local calendar
    /// days at the same wall-clock time (docs/time.md § Local days), not `cooldown` seconds.
    public var cooldownDays: Int? = nil
    public var over: CapOverflow
    /// Type or category names never limited by it.
    public var exempt: [String]
    public var counts: [CountedStatus]
    /// Where the cap is named: its `id` value, else its first key.
    public var span: SourceSpan

    public init(id: String, owner: String?, scope: CapScope, match: [String], only: [String], max: CapLimit?,
                per: CapWindow?, cooldown: Int?, over: CapOverflow, exempt: [String], counts: [CountedStatus],
                span: SourceSpan) {
        self.id = id
        self.owner = owner
        self.scope = scope
        self.match = match
        self.only = only
        self.max = max
        self.per = per
        self.cooldown = cooldown
        self.over = over
        self.exempt = exempt
        self.counts = counts
        self.span = span
    }
}
