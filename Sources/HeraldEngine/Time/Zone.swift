/// An IANA time zone with a precomputed offset table: the hot-path view of local time.
///
/// Instants are `Int` seconds since 1970-01-01T00:00:00Z; local dates are days since
/// 1970-01-01; local times are minutes since local midnight. Every method is pure and
/// deterministic: none reads the clock, and none calls Foundation once the zone exists.
///
/// The table holds the zone's whole history from the system's tz database and, after its
/// last listed transition, the database's rule for what follows (`ZoneTable`). Instants are
/// clamped to `Zone.supportedInstants` (±35 million years) so that absurd inputs give absurd
/// answers instead of arithmetic traps; requests accept only `RFC3339.instants`.
public struct Zone: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The zone's table, unretained (see `ZoneTableRef`): a zone is plain data.
    private let ref: ZoneTableRef

    /// The table (a counted reference; hot paths use `withTable`).
    var table: ZoneTable { ref.table }

    /// Runs `body` with the table borrowed (no reference counted).
    @inline(__always)
    func withTable<R>(_ body: (ZoneTable) -> R) -> R { ref.withTable(body) }

    /// The zone for an IANA identifier, or nil when the system's tz database has no zone of
    /// that name (`America/New_Yrok`, the offset spelling `GMT+5`, ICU's `PST`, tz's
    /// placeholder `Factory`; see `ZoneInfoDirectory`).
    ///
    /// The first call for an identifier reads and builds its table (tens of microseconds);
    /// later calls find it without a lock.
    public init?(identifier: String) {
        guard let table = ZoneTableCache.shared.table(for: identifier) else { return nil }
        ref = ZoneTableRef(immortal: table)
    }

    /// Coordinated Universal Time.
    public static let utc = Zone(table: utcTable)
    /// UTC's table, kept alive by this static (see `ref`).
    private static let utcTable = ZoneTable(identifier: "UTC", transitions: [], offsets: [0])

    /// A zone over `table`, which must live as long as the process (see `ref`).
    init(table: ZoneTable) { ref = ZoneTableRef(immortal: table) }

    /// The identifier as given to `init(identifier:)`.
    public var identifier: String { table.identifier }

    public var description: String { table.identifier }

    public static func == (a: Zone, b: Zone) -> Bool { a.ref === b.ref || a.identifier == b.identifier }

    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// Instants outside this range are clamped to it.
    public static let supportedInstants = -(1 << 50) ... (1 << 50)

    static let secondsPerDay = 86_400
    /// Local dates are clamped so that `date * 86_400` cannot overflow; the margin keeps the
    /// month and week windows of a clamped instant whole.
    static let supportedDates = (supportedInstants.lowerBound / secondsPerDay - 1000) ... (supportedInstants.upperBound / secondsPerDay + 1000)
    /// Stands in for "no upper bound" in local-seconds searches; far beyond any supported
    /// local time, far from overflow.
    static let unbounded = Int.max >> 2

    @inline(__always)
    static func clamp(_ instant: Int) -> Int {
        Swift.min(Swift.max(instant, supportedInstants.lowerBound), supportedInstants.upperBound)
    }

    @inline(__always)
    static func clamp(date: Int) -> Int {
        Swift.min(Swift.max(date, supportedDates.lowerBound), supportedDates.upperBound)
    }

    /// Times of day outside `0 ..< 1440` are clamped into it.
    @inline(__always)
    static func clamp(time: Int) -> Int { Swift.min(Swift.max(time, 0), 1439) }

    @inline(__always)
    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The offset from UTC in force at `instant`, in seconds east of UTC.
    /// - Complexity: O(1) in 1969–2100; O(log n) in the number of transitions elsewhere.
    @inline(__always)
    public func offset(at instant: Int) -> Int { withTable { $0.offset(at: instant) } }

    /// Local seconds since 1970-01-01T00:00 local: the wall clock as one number.
    @inline(__always)
    func localSeconds(_ instant: Int) -> Int {
        let t = Zone.clamp(instant)
        return t + withTable { $0.offset(at: t) }
    }

    /// The local date, time of day, second and weekday of `instant`.
    /// - Complexity: O(log n), no allocation.
    public func localDateTime(of instant: Int) -> LocalDateTime {
        let local = localSeconds(instant)
        let date = Zone.floorDiv(local, Zone.secondsPerDay)
        let secondOfDay = local - date * Zone.secondsPerDay
        return LocalDateTime(
            date: date, time: secondOfDay / 60, second: secondOfDay % 60,
            weekday: CivilDate.weekday(ofDay: date))
    }

    /// The local date (days since 1970-01-01) of `instant`.
    @inline(__always)
    public func localDate(of instant: Int) -> Int { Zone.floorDiv(localSeconds(instant), Zone.secondsPerDay) }

    /// The occurrence of wall-clock `time` (minutes, 0 ..< 1440) on local `date`: the first
    /// instant whose local date is `date` and whose local time is at or after `time`.
    ///
    /// One rule covers both DST cases: a time skipped by a gap resolves to the first valid
    /// instant after the gap (America/New_York 2026-03-08 02:30 → 03:00 EDT), a repeated
    /// time to its first occurrence (2026-11-01 01:30 → 01:30 EDT).
    /// - Returns: nil when the date has no local time at or after `time`
    ///   (Pacific/Apia skipped 2011-12-30 entirely).
    public func occurrence(of time: Int, on date: Int) -> Int? {
        let day = Zone.clamp(date: date) * Zone.secondsPerDay
        return withTable { $0.firstInstant(localFrom: day + Zone.clamp(time: time) * 60, below: day + Zone.secondsPerDay) }
    }

    /// The next occurrence of wall-clock `time` at or after `instant` ("at reminder time"):
    /// the earliest `occurrence(of: time, on: d)` that is at or after `instant`, skipping
    /// dates that have none. A repeated wall-clock time is delivered once: after the first
    /// 01:30 of a fall-back night the next occurrence is the following day's.
    ///
    /// Occurrences are increasing in the date (no zone jumps back by more than a day), so
    /// the first date found from the day before `instant`'s local date is the answer; the
    /// day before matters only when the local date jumped back across midnight.
    public func nextOccurrence(of time: Int, atOrAfter instant: Int) -> Int {
        let t = Zone.clamp(instant)
        var date = localDate(of: t) - 1
        while true {
            if let candidate = occurrence(of: time, on: date), candidate >= t { return candidate }
            if date >= Zone.supportedDates.upperBound { return Zone.supportedInstants.upperBound }
            date += 1
        }
    }

    /// The first instant of local `date` (its midnight, or the end of a gap that skips it:
    /// America/Havana began 2026-03-08 at 01:00), or nil if the date does not exist.
    public func startOfDay(_ date: Int) -> Int? { occurrence(of: 0, on: date) }

    /// The first instant whose local date is `date` or later: `startOfDay`, except that a
    /// skipped date yields the start of the next one. Never nil, so day boundaries of windows
    /// always exist.
    func dayBoundary(_ date: Int) -> Int {
        let from = Zone.clamp(date: date) * Zone.secondsPerDay
        return withTable { $0.firstInstant(localFrom: from, below: Zone.unbounded) } ?? Zone.supportedInstants.upperBound
    }
}
