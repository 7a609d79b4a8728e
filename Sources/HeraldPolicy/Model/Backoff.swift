public import HeraldSyntax

/// One entry of `backoff:`: when a condition over the ledger first holds (so many
/// notifications of a scope dismissed or ignored within a span, with at most so many opened
/// in that span), an effect applies to the scope for a duration from that instant.
public struct Backoff: Sendable {
    /// What the condition and the effect count together.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        case category, type
    }

    /// Which ledger entries the condition counts.
    public enum Counted: String, Sendable, Hashable {
        /// Entries reported `dismissed`.
        case dismissed
        /// Entries reported `delivered` or `dismissed` (gone out and never opened).
        case ignored
    }

    /// What applies while the back-off lasts.
    public enum Effect: Sendable, Hashable {
        /// Every notification of the scope is suppressed.
        case suppress
        /// At most `max` notifications of the scope per window (counted like a cap's default).
        case cap(max: Int, per: CapWindow)
    }

    /// Declared, or `backoff[<n>]` (0-based).
    public var id: String
    /// Type or category names the back-off applies to; empty: all.
    public var match: [String]
    public var by: Scope
    public var counted: Counted
    /// How many counted entries, within `within` seconds of each other, start it.
    public var count: Int
    public var within: Int
    /// At most this many `opened` entries of the scope in that span.
    public var opened: Int
    /// How long it lasts from the instant the condition first held, in seconds.
    public var duration: Int
    public var effect: Effect
    /// A built-in or catalog reason code.
    public var reason: String
    public var span: SourceSpan

    public init(id: String, match: [String], by: Scope, counted: Counted, count: Int, within: Int, opened: Int,
                duration: Int, effect: Effect, reason: String, span: SourceSpan) {
        self.id = id
        self.match = match
        self.by = by
        self.counted = counted
        self.count = count
        self.within = within
        self.opened = opened
        self.duration = duration
        self.effect = effect
        self.reason = reason
        self.span = span
    }
}
