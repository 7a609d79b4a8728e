extension Zone {
    /// The instant showing the same local wall-clock time as `instant`, `days` local calendar
    /// days later (earlier when negative): what a cooldown written in whole days waits for, so
    /// that "3 days" is three local days across a DST change (71 or 73 hours), not 72 hours.
    ///
    /// The wall-clock time resolves by the occurrence rule (a gap moves it to the first instant
    /// after the gap, a repeat takes the first); a skipped date moves it to the start of the
    /// next date that exists.
    /// - Complexity: O(log n).
    public func addingLocalDays(_ days: Int, to instant: Int) -> Int {
        let shift = Swift.min(Swift.max(days, -1_000_000), 1_000_000) * Zone.secondsPerDay
        let local = localSeconds(instant) + shift
        let day = Zone.floorDiv(local, Zone.secondsPerDay) * Zone.secondsPerDay
        return withTable { table in
            table.firstInstant(localFrom: local, below: day + Zone.secondsPerDay)
                ?? table.firstInstant(localFrom: local, below: Zone.unbounded)
        } ?? Zone.supportedInstants.upperBound
    }
}
