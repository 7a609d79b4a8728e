extension Zone {
    /// Whether `instant` falls in quiet hours on this zone's wall clock.
    /// - Complexity: O(log n).
    public func isQuiet(_ instant: Int, _ quietHours: QuietHours) -> Bool {
        if quietHours.isEmpty { return false }
        let local = localSeconds(instant)
        return quietHours.contains(secondOfDay: local - Zone.floorDiv(local, Zone.secondsPerDay) * Zone.secondsPerDay)
    }

    /// The first instant at or after `instant` whose local wall-clock time is outside
    /// `[start, end)`: `instant` itself when it is not quiet.
    ///
    /// The search follows the wall clock segment by segment: within a segment the local time
    /// is `t + offset`, so the end of the quiet span is one subtraction away; if that falls
    /// past the segment's end, the clock jumped, and the search continues from the jump. So a
    /// quiet span ending inside a spring-forward gap ends at the gap (the first instant after
    /// it), and a fall-back that repeats quiet time keeps the notification waiting through the
    /// repeat.
    /// - Complexity: O(log n), plus one step per transition crossed (at most a few).
    public func deferOutOfQuietHours(_ instant: Int, _ quietHours: QuietHours) -> Int {
        let t = Zone.clamp(instant)
        if quietHours.isEmpty { return t }
        return withTable { table in
            if t >= table.cycleEnd { return Self.deferOutOfQuietHoursPastCycle(t, quietHours, table) }
            return Self.deferOutOfQuietHours(t, quietHours, table)
        }
    }

    /// Past the table's cycle, the walk runs whole periods earlier and its answer is shifted
    /// back (kept out of line, so the common path stays small).
    @inline(never)
    private static func deferOutOfQuietHoursPastCycle(_ t: Int, _ quietHours: QuietHours, _ table: ZoneTable) -> Int {
        let shift = table.periodShift(t)
        return deferOutOfQuietHours(t &- shift, quietHours, table) &+ shift
    }

    /// `deferOutOfQuietHours` on the listed segments, from `t` (before `table.cycleEnd`).
    @inline(__always)
    private static func deferOutOfQuietHours(_ t: Int, _ quietHours: QuietHours, _ table: ZoneTable) -> Int {
        let transitions = table.transitions
        var i = table.listedSegment(containing: t)
        var from = t
        while true {
            let o = table.offsets[i]
            let candidate = quietHours.firstQuietFreeLocal(atOrAfter: from + o) - o
            if i == transitions.count || candidate < transitions[i] { return candidate }
            from = transitions[i]
            i += 1
        }
    }
}
