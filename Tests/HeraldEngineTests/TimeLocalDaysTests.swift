import HeraldContract
import HeraldEngine
import Testing

/// `Zone.addingLocalDays` (docs/time.md § Local days): the same wall-clock time n local days
/// later. Expected instants computed with Python's `zoneinfo`.
@Suite struct TimeLocalDaysTests {
    static func zone(_ id: String) -> Zone { Zone(identifier: id)! }

    @Test func acrossSpringForwardThreeLocalDaysAre71Hours() {
        // Sydney, Friday 2026-10-02 18:00 AEST → Monday 2026-10-05 18:00 AEDT.
        let z = Self.zone("Australia/Sydney")
        #expect(z.addingLocalDays(3, to: 1790928000) == 1791183600)
        #expect(1791183600 - 1790928000 == 71 * 3600)
        #expect(z.addingLocalDays(-3, to: 1791183600) == 1790928000)
    }

    @Test func acrossDSTInNewYork() {
        let z = Self.zone("America/New_York")
        // 2026-03-06 10:00 EST → 2026-03-09 10:00 EDT (71 h).
        #expect(z.addingLocalDays(3, to: 1772809200) == 1773064800)
        // 2026-10-30 10:00 EDT → 2026-11-02 10:00 EST (73 h).
        #expect(z.addingLocalDays(3, to: 1793368800) == 1793631600)
        #expect(1793631600 - 1793368800 == 73 * 3600)
        // 02:30 the day before the gap → 03:00 EDT (02:30 does not exist on 2026-03-08).
        #expect(z.addingLocalDays(1, to: 1772868600) == 1772953200)
        #expect(z.addingLocalDays(0, to: 1772868600) == 1772868600)
    }
}
