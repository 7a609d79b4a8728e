import Testing
@testable import HeraldEngine

@Suite struct ContractTimeTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0),
        ("2026-03-08T17:45:00Z", 1_772_991_900),
        ("2026-03-08t18:45:00+01:00", 1_772_991_900),
        ("2026-03-08T12:15:00-05:30", 1_772_991_900),
        ("2026-03-08T17:45:00.999z", 1_772_991_900),
        ("1969-12-31T23:59:59Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
    ])
    func parsesInstants(text: String, expected: Int) {
        #expect(ContractTime.parseInstant(text) == expected)
    }

    @Test(arguments: [
        "", "tomorrow", "2026-03-08", "2026-03-08T17:45Z", "2026-03-08 17:45:00Z", "2026-03-08T17:45:00",
        "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-03-08T24:00:00Z", "2026-03-08T17:60:00Z", "2026-03-08T17:45:60Z", "2026-03-08T17:45:00.Z",
        "2026-03-08T17:45:00+0100", "2026-03-08T17:45:00+01:00Z", "0000-01-01T00:00:00Z", "+2026-03-08T17:45:00Z",
        "2026-03-08T17:45:00+24:00", "２026-03-08T17:45:00Z",
    ])
    func rejectsMalformedInstants(text: String) {
        #expect(ContractTime.parseInstant(text) == nil)
    }

    @Test func formatsWithOffsets() {
        #expect(ContractTime.format(1_772_991_900) == "2026-03-08T17:45:00Z")
        #expect(ContractTime.format(1_772_991_900, offsetSeconds: 3600) == "2026-03-08T18:45:00+01:00")
        #expect(ContractTime.format(1_772_991_900, offsetSeconds: -19_800) == "2026-03-08T12:15:00-05:30")
        #expect(ContractTime.format(-1) == "1969-12-31T23:59:59Z")
    }

    @Test func roundTripsRandomInstants() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let instant = Int.random(in: -62_135_596_800...253_402_214_400, using: &rng)
            let offset = Int.random(in: -14 * 4...14 * 4, using: &rng) * 900
            #expect(ContractTime.parseInstant(ContractTime.format(instant, offsetSeconds: offset)) == instant)
        }
    }

    @Test func timesOfDay() {
        #expect(ContractTime.parseTimeOfDay("00:00") == 0)
        #expect(ContractTime.parseTimeOfDay("07:30") == 27_000)
        #expect(ContractTime.parseTimeOfDay("23:59") == 86_340)
        for bad in ["24:00", "7:30", "07:60", "0730", "07:30:00", "ab:cd", ""] {
            #expect(ContractTime.parseTimeOfDay(bad) == nil)
        }
        #expect(ContractTime.formatTimeOfDay(27_000) == "07:30")
    }
}
