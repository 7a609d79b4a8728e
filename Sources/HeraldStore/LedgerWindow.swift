public import HeraldPolicy

/// How much of a user's ledger a compiled policy can look at: what a store reads before a
/// decision and what retention may delete.
///
/// Computed once per bundle from every rule that reads the ledger: caps and cooldowns (the
/// policy's and each type's), back-offs (their span, their duration and an effect's cap
/// window), dedupe windows, batching windows and the windows of `sent()` in every expression.
/// Calendar windows are widened to whole seconds that cover them in any zone (a local day is
/// at most 26 hours from an instant in a zone 14 hours ahead, a month 31 days, a year 366),
/// and a margin of two days covers zones and DST; the store therefore reads a little more than
/// the policy needs, never less.
///
/// Lifetime windows are not a number of seconds: the types a lifetime cap (or a lifetime
/// `sent()`) counts are listed in `lifetimeTypes`, whose entries a store always reads and
/// retention never deletes. A lifetime rule that counts every type makes `lookback` nil: the
/// whole ledger is read and nothing is pruned. A `sent()` window measured from an instant
/// (`sent(reactivation.nudge, since(state.engagement.lastActiveAt))`) has no length either: its
/// target's types join `lifetimeTypes` the same way.
public struct LedgerWindow: Sendable, Hashable {
    /// Seconds before the decided instant the policy can look back; nil: all of time.
    public var lookback: Int?
    /// Types whose entries some lifetime rule counts: read whatever their age, never pruned.
    public var lifetimeTypes: Set<String>

    /// The margin added to every computed window (zones, DST, a trigger decided late).
    public static let margin = 2 * 86_400

    public init(lookback: Int?, lifetimeTypes: Set<String> = []) {
        self.lookback = lookback
        self.lifetimeTypes = lifetimeTypes
    }

    /// The window of `bundle` (see the type's description).
    /// - Complexity: O(rules + expressions), once per bundle.
    public init(bundle: PolicyBundle) {
        var builder = Builder(bundle: bundle)
        for cap in bundle.caps { builder.add(cap) }
        for type in bundle.types {
            for cap in type.caps { builder.add(cap) }
            builder.add(type.eligible)
            for rule in type.suppress { builder.add(rule.when) }
            if let window = type.dedupe?.window { builder.add(seconds: window) }
        }
        for rule in bundle.suppress { builder.add(rule.when) }
        for category in bundle.categories { builder.add(category.requires) }
        builder.add(bundle.badge)
        for rule in bundle.prompt.wait { builder.add(rule.when) }
        for backoff in bundle.backoff {
            builder.add(seconds: backoff.within + backoff.duration)
            if case .cap(_, let per) = backoff.effect { builder.add(per, counting: [], scope: .type) }
        }
        if let window = bundle.dedupe.window { builder.add(seconds: window) }
        for group in bundle.batching { builder.add(seconds: group.window) }
        // A digest flushes at a local time within a day of its members (a weekly one within a
        // week; out of quiet hours is within the margin).
        if !bundle.digests.names.isEmpty { builder.add(seconds: 86_400) }
        if bundle.digests.contains(where: { $0.weekday != nil }) { builder.add(seconds: 8 * 86_400) }
        self = builder.window
    }

    /// What to read for a decision judged around `instant` (the earlier of `now` and the
    /// trigger): entries delivering at or after `instant - lookback`, and every entry of the
    /// lifetime types.
    public func read(around instant: Int) -> LedgerRead {
        guard let lookback else { return LedgerRead(since: nil, lifetimeTypes: []) }
        let since = instant.subtractingReportingOverflow(lookback)
        return LedgerRead(since: since.overflow ? Int.min : since.partialValue, lifetimeTypes: lifetimeTypes)
    }

    /// The cutoff retention uses at `now`: entries delivering before it that are not of a
    /// lifetime type can no longer change a decision (nil: keep everything).
    public func pruneCutoff(now: Int) -> Int? {
        lookback.map { now - $0 }
    }

    /// Folds rules into a window.
    private struct Builder {
        let bundle: PolicyBundle
        var longest = 0
        var everything = false
        var lifetimeTypes: Set<String> = []

        init(bundle: PolicyBundle) { self.bundle = bundle }

        var window: LedgerWindow {
            everything ? LedgerWindow(lookback: nil) : LedgerWindow(lookback: longest + LedgerWindow.margin, lifetimeTypes: lifetimeTypes)
        }

        mutating func add(seconds: Int) {
            longest = max(longest, seconds)
        }

        mutating func add(_ cap: Cap) {
            if let cooldown = cap.cooldown { add(seconds: cooldown) }
            if let days = cap.cooldownDays { add(seconds: (days + 1) * 86_400) }
            if let per = cap.per { add(per, counting: counted(by: cap), scope: cap.scope) }
            // A `max` expression reads its values from the request; only a `sent()` in it reads
            // the ledger (a state-driven max, `state.plans.cadence[subject] ?? 2`, needs no more).
            if case .expression(let e)? = cap.max { add(e) }
        }

        /// The type or category names a cap counts: its `match`, else (a type's own cap) its
        /// type or that type's category; empty: every type.
        func counted(by cap: Cap) -> [String] {
            guard cap.match.isEmpty else { return cap.match }
            guard let owner = cap.owner else { return [] }
            switch cap.scope {
            case .type: return [owner]
            case .category: return bundle.types.first { $0.id == owner }.map { [$0.category] } ?? []
            default: return []
            }
        }

        mutating func add(_ window: CapWindow, counting names: [String], scope: CapScope) {
            switch window {
            case .day: add(seconds: 2 * 86_400)
            case .week, .calendarWeek: add(seconds: 8 * 86_400)
            case .previousSevenDays: add(seconds: 9 * 86_400)
            case .month: add(seconds: 32 * 86_400)
            case .year: add(seconds: 367 * 86_400)
            case .duration(let seconds): add(seconds: seconds)
            case .lifetime: addLifetime(names, byTypeOrCategory: scope == .type || scope == .category)
            }
        }

        /// A lifetime rule over type or category `names` keeps those types' entries; one over
        /// everything (or over channels or subjects of any type) keeps the whole ledger.
        mutating func addLifetime(_ names: [String], byTypeOrCategory: Bool) {
            guard byTypeOrCategory, !names.isEmpty else {
                everything = true
                return
            }
            for name in names {
                let types = bundle.types.filter { $0.id == name || $0.category == name }.map(\.id)
                if types.isEmpty { everything = true }
                lifetimeTypes.formUnion(types)
            }
        }

        mutating func add(_ expression: CompiledExpression?) {
            guard let expression else { return }
            // A window measured from an instant (`sent(t, since(state.lastActiveAt))`) has no
            // length: like a lifetime count, its target's entries are read whatever their age.
            if !expression.sinceTargets.isEmpty { addLifetime(expression.sinceTargets, byTypeOrCategory: true) }
            for window in expression.sentWindows {
                switch window {
                case .day: add(seconds: 2 * 86_400)
                case .week, .calendarWeek: add(seconds: 8 * 86_400)
                case .month: add(seconds: 32 * 86_400)
                case .duration(let seconds): add(seconds: seconds)
                // `sent()` names its target in the expression; a lifetime count keeps everything
                // rather than parse the target back out.
                case .lifetime: everything = true
                }
            }
        }
    }
}
