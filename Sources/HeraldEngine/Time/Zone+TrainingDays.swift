extension Zone {
    /// The next occurrence of wall-clock `time` at or after `instant` on a local date whose
    /// weekday is in `weekdays`, or nil when `weekdays` is empty.
    ///
    /// Occurrences follow `nextOccurrence(of:atOrAfter:)`: gaps resolve forward, repeats
    /// are delivered once, skipped dates are passed over.
    /// - Complexity: O(log n) per date tried, at most about nine dates.
    public func nextOccurrence(of time: Int, on weekdays: Weekdays, atOrAfter instant: Int) -> Int? {
        if weekdays.isEmpty { return nil }
        let t = Zone.clamp(instant)
        var date = localDate(of: t) - 1
        while date <= Zone.supportedDates.upperBound {
            if weekdays.contains(weekday: CivilDate.weekday(ofDay: date)),
               let candidate = occurrence(of: time, on: date), candidate >= t {
                return candidate
            }
            date += 1
        }
        return nil
    }
}

/// When a non-time-critical notification prefers training days: the next occurrence of the
/// user's reminder time on one of their training days, at or after `instant`, in `zone`.
/// - Parameters:
///   - reminderTime: minutes since local midnight, 0 ..< 1440.
///   - trainingDays: the weekdays the user trains on.
///   - zone: the user's zone.
///   - instant: the trigger; the result is at or after it.
/// - Returns: nil when `trainingDays` is empty (the caller falls back to the reminder time).
public func nextTrainingDay(
    reminderTime: Int, trainingDays: Weekdays, in zone: Zone, atOrAfter instant: Int
) -> Int? {
    zone.nextOccurrence(of: reminderTime, on: trainingDays, atOrAfter: instant)
}
