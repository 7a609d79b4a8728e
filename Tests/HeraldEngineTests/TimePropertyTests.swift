import Testing
import HeraldContract
@testable import HeraldEngine

/// Helpers of the time tests, namespaced so other test files of the target can use the same names.
enum TimeTesting {
    /// The target's seeded generator (`LedgerSplitMix64.swift`), so every run checks the same
    /// cases and a failure reproduces.
    typealias SplitMix64 = HeraldEngineTests.SplitMix64

    /// Every instant in `[from, to)` at which a wall-clock predicate can change: `from`, each
    /// instant whose local time is a whole minute, and each transition. Quiet hours and the
    /// occurrence rule compare whole-minute wall-clock times, so between two consecutive points
    /// their answer is constant, and checking the points checks every second.
    static func changePoints(_ zone: Zone, from: Int, to: Int) -> [Int] {
        var points = [from]
        var start = from + 1
        for end in zone.table.transitions(in: start ..< to) + [to] {
            let o = zone.offset(at: start)
            let r = (start + o) % 60
            var t = start + (r == 0 ? 0 : (r > 0 ? 60 - r : -r))
            while t < end {
                points.append(t)
                t += 60
            }
            if end < to { points.append(end) }
            start = end + 1
        }
        return points
    }
}

@Suite("Time properties over random instants")
struct TimePropertyTests {
    static let zoneIDs = [
        "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kathmandu",
        "Pacific/Chatham", "Pacific/Apia", "America/Santiago", "Asia/Beirut",
    ]
    /// 2009-01-01 ..< 2031-01-01 UTC, which holds Apia's skipped date and many DST changes.
    static let span = 1_230_768_000 ..< 1_924_992_000
    /// The rest of the range, each taken for a sixth of the cases: the zones' history from
    /// 1850 (local mean time, wars, Apia's 1892 date-line move), the end of the bucketed
    /// years and the rule's first repeats (2090–2500), and the last years (9980–9999).
    static let otherSpans = [
        CivilDate(year: 1850, month: 1, day: 1).days * 86_400 ..< 0,
        CivilDate(year: 2090, month: 1, day: 1).days * 86_400 ..< CivilDate(year: 2500, month: 1, day: 1).days * 86_400,
        CivilDate(year: 9980, month: 1, day: 1).days * 86_400 ..< RFC3339.instants.upperBound - 172_800,
    ]

    /// A random instant of a random span: half uniformly in it, half within two days of a
    /// transition in it.
    static func instant(_ zone: Zone, _ rng: inout TimeTesting.SplitMix64) -> Int {
        let span = Bool.random(using: &rng) ? Self.span : otherSpans.randomElement(using: &rng)!
        let transitions = zone.table.transitions(in: span)
        if !transitions.isEmpty, Bool.random(using: &rng) {
            return transitions.randomElement(using: &rng)! + Int.random(in: -172_800 ... 172_800, using: &rng)
        }
        return Int.random(in: span, using: &rng)
    }

    /// Random wall-clock minutes, often on the quarter hour so they meet gap edges.
    static func minute(_ rng: inout TimeTesting.SplitMix64) -> Int {
        Bool.random(using: &rng) ? Int.random(in: 0 ..< 96, using: &rng) * 15 : Int.random(in: 0 ..< 1440, using: &rng)
    }

    func inOccurrenceSet(_ zone: Zone, _ t: Int, time: Int, date: Int) -> Bool {
        let l = zone.localDateTime(of: t)
        return l.date == date && l.time >= time
    }

    @Test(arguments: zoneIDs)
    func deferOutOfQuietHoursIsNeverQuietAndMinimal(_ id: String) throws {
        let zone = try zoneNamed(id)
        var rng = TimeTesting.SplitMix64(seed: 0x5EED_0001 ^ UInt64(id.utf8.count))
        for _ in 0 ..< 600 {
            let t = Self.instant(zone, &rng)
            let q = QuietHours(start: Self.minute(&rng), end: Self.minute(&rng))
            let r = zone.deferOutOfQuietHours(t, q)
            #expect(r >= t)
            #expect(!zone.isQuiet(r, q), "\(id) \(t) \(q) -> \(r)")
            #expect(r - 60 < t || zone.isQuiet(r - 60, q))
            #expect(r == t || zone.isQuiet(r - 1, q))
            #expect(r - t < 86_400 + 3600 * 25)
            if r > t {
                for p in TimeTesting.changePoints(zone, from: t, to: r) where !zone.isQuiet(p, q) {
                    Issue.record("\(id): \(p) in [\(t), \(r)) is not quiet for \(q)")
                    break
                }
            }
        }
    }

    @Test(arguments: zoneIDs)
    func occurrenceIsTheFirstInstantOfItsDateAtOrAfterTheTime(_ id: String) throws {
        let zone = try zoneNamed(id)
        let table = zone.table
        var rng = TimeTesting.SplitMix64(seed: 0x5EED_0002 ^ UInt64(id.utf8.count))
        for _ in 0 ..< 600 {
            let t = Self.instant(zone, &rng)
            let date = zone.localDateTime(of: t).date + Int.random(in: -1 ... 1, using: &rng)
            let time = Self.minute(&rng)
            // Every instant whose local date can be `date` lies in this range.
            let from = date * 86_400 - table.maxOffset - 1
            let to = (date + 1) * 86_400 - table.minOffset + 1
            if let o = zone.occurrence(of: time, on: date) {
                let l = zone.localDateTime(of: o)
                #expect(l.date == date && l.time >= time, "\(id) \(time) on \(date) -> \(o)")
                #expect(!inOccurrenceSet(zone, o - 1, time: time, date: date))
                for p in TimeTesting.changePoints(zone, from: from, to: o) where inOccurrenceSet(zone, p, time: time, date: date) {
                    Issue.record("\(id): \(p) precedes occurrence \(o) of \(time) on \(date)")
                    break
                }
            } else {
                for p in TimeTesting.changePoints(zone, from: from, to: to) where inOccurrenceSet(zone, p, time: time, date: date) {
                    Issue.record("\(id): \(p) is an occurrence of \(time) on \(date), but nil was returned")
                    break
                }
            }
        }
    }

    @Test(arguments: zoneIDs)
    func nextOccurrenceIsTheEarliestOccurrenceAtOrAfter(_ id: String) throws {
        let zone = try zoneNamed(id)
        var rng = TimeTesting.SplitMix64(seed: 0x5EED_0003 ^ UInt64(id.utf8.count))
        for _ in 0 ..< 1000 {
            let t = Self.instant(zone, &rng)
            let time = Self.minute(&rng)
            let n = zone.nextOccurrence(of: time, atOrAfter: t)
            let date = zone.localDateTime(of: n).date
            #expect(n >= t)
            #expect(zone.occurrence(of: time, on: date) == n)
            for d in (zone.localDateTime(of: t).date - 1) ..< date {
                if let o = zone.occurrence(of: time, on: d) { #expect(o < t, "\(id): \(o) on \(d) is before \(n)") }
            }
            // Delivered once: from one second after, the next occurrence is on a later date.
            let after = zone.nextOccurrence(of: time, atOrAfter: n + 1)
            #expect(zone.localDateTime(of: after).date > date)
        }
    }

    @Test(arguments: zoneIDs)
    func windowsHoldTheirInstantAndTileTheTimeline(_ id: String) throws {
        let zone = try zoneNamed(id)
        var rng = TimeTesting.SplitMix64(seed: 0x5EED_0004 ^ UInt64(id.utf8.count))
        for _ in 0 ..< 1000 {
            let t = Self.instant(zone, &rng)
            for w in [Window.day, .week, .calendarWeek, .month, .rolling(172_800)] {
                let range = zone.window(w, containing: t)
                #expect(range.contains(t), "\(id) \(w) \(t) -> \(range)")
            }
            let day = zone.window(.day, containing: t)
            // A day window starts where the local date advances and meets the next one.
            #expect(zone.localDateTime(of: day.lowerBound - 1).date < zone.localDateTime(of: day.lowerBound).date)
            #expect(zone.window(.day, containing: day.upperBound).lowerBound == day.upperBound)
            #expect(zone.window(.day, containing: day.lowerBound - 1).upperBound == day.lowerBound)
            #expect((82_800 ... 90_000).contains(day.count) || id == "Pacific/Apia")
            let week = zone.window(.calendarWeek, containing: t)
            #expect(zone.localDateTime(of: week.lowerBound).weekday == 1 || id == "Pacific/Apia")
        }
    }

    @Test(arguments: zoneIDs)
    func sameWallClockRoundTrips(_ id: String) throws {
        let zone = try zoneNamed(id)
        var rng = TimeTesting.SplitMix64(seed: 0x5EED_0005 ^ UInt64(id.utf8.count))
        for _ in 0 ..< 1000 {
            let t = Self.instant(zone, &rng)
            // Into UTC and back: the same wall clock, at the first instant showing it.
            let utc = Zone.utc.sameWallClock(t, from: zone)
            let back = zone.sameWallClock(utc, from: .utc)
            #expect(zone.localDateTime(of: back) == zone.localDateTime(of: t))
            #expect(back <= t)
            #expect(zone.sameWallClock(t, from: zone) == back)
        }
    }
}
