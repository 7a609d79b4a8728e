import Foundation
import Testing
import HeraldContract
@testable import HeraldEngine

/// The zone tables against an independent reader of the same tz database: Python's
/// `zoneinfo` (its own TZif parser and POSIX TZ rule code), through
/// `Tests/Fixtures/time/zone-oracle.txt`, written by `scripts/tz-oracle.py`. For 22 zones
/// (history, rules with negative and 50-hour times, negative daylight saving, Morocco's
/// listed transitions to 2087, fixed offsets) the file lists every offset change in 20 years
/// from 1800 to 9999, and 60 random instants from year 1 to 9999. After a tzdata update,
/// regenerate the file: `python3 scripts/tz-oracle.py > Tests/Fixtures/time/zone-oracle.txt`.
@Suite("Zone tables against Python's zoneinfo")
struct TimeZoneOracleTests {
    struct Expectations {
        var zone: String
        /// Offset changes by UTC year: (instant, offset before, offset after).
        var years: [(year: Int, changes: [(Int, Int, Int)])] = []
        var samples: [(Int, Int)] = []
    }

    static func load() throws -> [Expectations] {
        let text = try String(contentsOfFile: DecideSupport.path("Tests/Fixtures/time/zone-oracle.txt"), encoding: .utf8)
        var result: [Expectations] = []
        var pending: [(Int, Int, Int)] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ").map(String.init)
            switch parts[0] {
            case "Z": result.append(Expectations(zone: parts[1]))
            case "T": pending.append((Int(parts[2])!, Int(parts[3])!, Int(parts[4])!))
            case "Y":
                result[result.count - 1].years.append((Int(parts[1])!, pending))
                pending = []
            case "S": result[result.count - 1].samples.append((Int(parts[1])!, Int(parts[2])!))
            default: Issue.record("unexpected line \(line)")
            }
        }
        return result
    }

    @Test func offsetChangesAndOffsetsAgree() throws {
        let expectations = try Self.load()
        #expect(expectations.count == 22)
        var checked = 0
        for expected in expectations {
            let zone = try zoneNamed(expected.zone)
            for (year, changes) in expected.years {
                let start = CivilDate(year: year, month: 1, day: 1).days * 86_400
                let end = year == 9999 ? RFC3339.instants.upperBound + 1 : CivilDate(year: year + 1, month: 1, day: 1).days * 86_400
                let found = zone.table.transitions(in: start ..< end)
                #expect(found == changes.map(\.0), "\(expected.zone) in \(year)")
                for (t, before, after) in changes {
                    #expect(zone.offset(at: t - 1) == before && zone.offset(at: t) == after, "\(expected.zone) at \(t)")
                    checked += 1
                }
            }
            for (t, offset) in expected.samples {
                #expect(zone.offset(at: t) == offset, "\(expected.zone) at \(t)")
                checked += 1
            }
        }
        #expect(checked > 1500)
    }
}
