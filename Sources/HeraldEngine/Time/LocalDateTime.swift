/// An instant seen on a zone's wall clock.
public struct LocalDateTime: Sendable, Hashable {
    /// The local calendar date, in days since 1970-01-01 (see `CivilDate`).
    public var date: Int
    /// The local time of day in whole minutes since local midnight, 0 ..< 1440.
    public var time: Int
    /// The seconds past `time`, 0 ..< 60.
    public var second: Int
    /// The weekday of `date`, 1 = Monday … 7 = Sunday.
    public var weekday: Int

    public init(date: Int, time: Int, second: Int, weekday: Int) {
        self.date = date
        self.time = time
        self.second = second
        self.weekday = weekday
    }

    /// Seconds since local midnight, 0 ..< 86400.
    public var secondOfDay: Int { time * 60 + second }

    /// The calendar date as year, month and day.
    public var civilDate: CivilDate { CivilDate(days: date) }
}
