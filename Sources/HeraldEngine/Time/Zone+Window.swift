extension Zone {
    /// The instants of window `w` that holds `instant`, as a half-open range.
    ///
    /// Calendar windows run from the first instant of their first local date to the first
    /// instant of the local date after their last (`dayBoundary`), so a day is 23 or 25 hours
    /// long across DST changes, 23¼ hours at Lord Howe's half-hour change, and a skipped date
    /// (Pacific/Apia 2011-12-30) has no window of its own. `rolling(d)` counts the `d` seconds
    /// ending at and including `instant`: an event at `e` is inside iff `instant - d < e ≤ instant`.
    /// - Complexity: O(log n).
    public func window(_ w: Window, containing instant: Int) -> Range<Int> {
        let t = Zone.clamp(instant)
        switch w {
        case .lifetime:
            return Int.min ..< Int.max
        case .rolling(let duration):
            let d = Swift.min(Swift.max(duration, 0), t - Zone.supportedInstants.lowerBound + 1)
            return (t - d + 1) ..< (t + 1)
        case .day:
            // `windowDate` without computing the next boundary twice.
            var date = localDate(of: t)
            var next = dayBoundary(date + 1)
            while next <= t {
                date += 1
                next = dayBoundary(date + 1)
            }
            return dayBoundary(date) ..< next
        case .week:
            let date = windowDate(of: t)
            return dayBoundary(date - 6) ..< dayBoundary(date + 1)
        case .calendarWeek:
            let date = windowDate(of: t)
            let monday = date - (CivilDate.weekday(ofDay: date) - 1)
            return dayBoundary(monday) ..< dayBoundary(monday + 7)
        case .month:
            let civil = CivilDate(days: windowDate(of: t))
            let first = CivilDate(year: civil.year, month: civil.month, day: 1).days
            let next = civil.month == 12
                ? CivilDate(year: civil.year + 1, month: 1, day: 1).days
                : CivilDate(year: civil.year, month: civil.month + 1, day: 1).days
            return dayBoundary(first) ..< dayBoundary(next)
        case .year:
            let civil = CivilDate(days: windowDate(of: t))
            let first = CivilDate(year: civil.year, month: 1, day: 1).days
            let next = CivilDate(year: civil.year + 1, month: 1, day: 1).days
            return dayBoundary(first) ..< dayBoundary(next)
        }
    }

    /// The local date whose day window holds `instant`: its local date, except when a
    /// fall-back across midnight repeats the end of the previous date after the next one
    /// began; such repeated time stays in the later day so day windows tile the timeline.
    func windowDate(of instant: Int) -> Int {
        var date = localDate(of: instant)
        while dayBoundary(date + 1) <= instant { date += 1 }
        return date
    }
}
