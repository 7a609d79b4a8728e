extension Zone {
    /// The instant showing, on this zone's wall clock, the same local date and time that
    /// `instant` shows in `old`: how a pending item is re-planned when the user's zone
    /// changes (19:00 in America/New_York becomes 19:00 in Europe/London).
    ///
    /// The wall-clock time resolves by the occurrence rule (a gap moves it to the first
    /// instant after the gap, a repeat takes the first); if the local date does not exist
    /// here, it moves to the start of the next date that does.
    /// - Complexity: O(log n).
    public func sameWallClock(_ instant: Int, from old: Zone) -> Int {
        let local = old.localSeconds(instant)
        let day = Zone.floorDiv(local, Zone.secondsPerDay) * Zone.secondsPerDay
        return withTable { table in
            table.firstInstant(localFrom: local, below: day + Zone.secondsPerDay)
                ?? table.firstInstant(localFrom: local, below: Zone.unbounded)
        } ?? Zone.supportedInstants.upperBound
    }
}
