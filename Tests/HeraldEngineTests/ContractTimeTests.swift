import Testing
import HeraldContract
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
        // The range is checked in UTC: local year 0000 and 10000 offsets are fine.
        ("0000-12-31T20:00:00-05:00", -62_135_593_200),
        ("9999-12-31T23:59:59+23:59", 253_402_214_459),
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
        // Found by fuzzing: well-formed, but years 10000 and 0 in UTC.
        "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "0001-01-01T00:00:00+00:01",
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
        for index in 0..<4000 {
            // Every other instant within two days of an end of the range.
            let instant = index % 2 == 0 ? Int.random(in: RFC3339.instants, using: &rng)
                : index % 4 == 1 ? RFC3339.instants.lowerBound + Int.random(in: 0 ... 172_800, using: &rng)
                : RFC3339.instants.upperBound - Int.random(in: 0 ... 172_800, using: &rng)
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
