/// A daily span of local wall-clock time during which notifications wait: `[start, end)` in
/// minutes since local midnight. It may cross midnight (`22:00`–`07:00`); `start == end`
/// means no quiet hours at all.
public struct QuietHours: Sendable, Hashable {
    /// Minutes since local midnight, 0 ..< 1440 (other values are taken modulo 1440).
    public var start: Int
    /// Minutes since local midnight, 0 ..< 1440, exclusive (other values are taken modulo 1440).
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Whether these quiet hours cover no time at all.
    public var isEmpty: Bool { QuietHours.normalize(start) == QuietHours.normalize(end) }

    @inline(__always)
    static func normalize(_ minutes: Int) -> Int {
        let r = minutes % 1440
        return r < 0 ? r + 1440 : r
    }

    /// Whether a local second of the day (0 ..< 86400) is quiet.
    @inline(__always)
    func contains(secondOfDay s: Int) -> Bool {
        let a = QuietHours.normalize(start) * 60
        let b = QuietHours.normalize(end) * 60
        return a <= b ? (a <= s && s < b) : (s >= a || s < b)
    }

    /// The first local second (as local seconds since the epoch) at or after `local` that is
    /// not quiet.
    @inline(__always)
    func firstQuietFreeLocal(atOrAfter local: Int) -> Int {
        let day = Zone.floorDiv(local, Zone.secondsPerDay) * Zone.secondsPerDay
        let s = local - day
        guard contains(secondOfDay: s) else { return local }
        let a = QuietHours.normalize(start) * 60
        let b = QuietHours.normalize(end) * 60
        // A quiet second before `b` on the same local day ends at today's `b`; one at or
        // after `start` of a midnight-crossing span ends at tomorrow's `b`.
        return (a > b && s >= a) ? day + Zone.secondsPerDay + b : day + b
    }
}
