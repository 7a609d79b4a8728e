/// A span of time that a cap or a dedupe rule counts over.
public enum Window: Sendable, Hashable {
    /// The user's local calendar day.
    case day
    /// The local day and the six before it.
    case week
    /// The local Monday-to-Sunday week.
    case calendarWeek
    /// The local calendar month.
    case month
    /// The local calendar year.
    case year
    /// A rolling duration in seconds (`48h`): the `d` seconds ending at the instant,
    /// `(instant - d + 1) ..< (instant + 1)`. Zero or negative durations are empty.
    case rolling(Int)
    /// All of time.
    case lifetime
}
