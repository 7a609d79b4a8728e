import Testing
import HeraldContract
import HeraldEngine

@Suite("RFC 3339 timestamps")
struct TimeRFC3339Tests {
    // Expected instants from Python: int(datetime(..., tzinfo=timezone(timedelta(...))).timestamp()).
    @Test(arguments: [
        ("2026-03-08T02:30:00-05:00", 1_772_955_000),
        ("2026-03-08T07:30:00Z", 1_772_955_000),
        ("2026-03-08t07:30:00z", 1_772_955_000),
        ("2026-03-08T07:30:00.999999Z", 1_772_955_000),
        ("2026-03-08T07:30:00.5+00:00", 1_772_955_000),
        ("2026-03-08T07:30:00-00:00", 1_772_955_000),
        ("2026-03-08T03:00:00-04:00", 1_772_953_200),
        ("2026-03-08T03:00:00+05:45", 1_772_918_100),
        ("2024-02-29T23:59:59+12:45", 1_709_205_299),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-07-20T20:17:40Z", -14_182_940),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
    ])
    func parses(_ text: String, _ instant: Int) {
        #expect(RFC3339.parse(text) == instant)
    }

    @Test(arguments: [
        "", "garbage", "2026-03-08", "2026-03-08T07:30Z", "2026-03-08T07:30:00",
        "2026-03-08 07:30:00Z", "2026-3-08T07:30:00Z", "26-03-08T07:30:00Z",
        "2026-02-29T07:30:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-03-08T24:00:00Z", "2026-03-08T07:60:00Z", "2016-12-31T23:59:60Z",
        "2026-03-08T07:30:00.Z", "2026-03-08T07:30:00+5:00", "2026-03-08T07:30:00+05", "2026-03-08T07:30:00+0500",
        "2026-03-08T07:30:00+24:00", "2026-03-08T07:30:00+05:60", "2026-03-08T07:30:00Z ", " 2026-03-08T07:30:00Z",
        "2026-03-08T07:30:00ZZ", "+2026-03-08T07:30:00Z", "2026-03-08T07:30:00,5Z", "２０２６-03-08T07:30:00Z",
        "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "0000-01-01T00:00:00Z",
    ])
    func rejects(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func formats() throws {
        #expect(RFC3339.format(1_772_955_000, offsetSeconds: 0) == "2026-03-08T07:30:00Z")
        #expect(RFC3339.format(1_772_953_200, offsetSeconds: -14_400) == "2026-03-08T03:00:00-04:00")
        #expect(RFC3339.format(1_772_918_100, offsetSeconds: 20_700) == "2026-03-08T03:00:00+05:45")
        #expect(RFC3339.format(-14_182_940, offsetSeconds: 0) == "1969-07-20T20:17:40Z")
        #expect(RFC3339.format(-62_135_596_800, offsetSeconds: 0) == "0001-01-01T00:00:00Z")
        // Offsets RFC 3339 cannot write (seconds, a day or more) fall back to UTC.
        #expect(RFC3339.format(0, offsetSeconds: -2670) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.format(0, offsetSeconds: 86_400) == "1970-01-01T00:00:00Z")
        // So does a local year past 9999; local year 0000 is four digits and stays.
        #expect(RFC3339.format(253_402_300_799, offsetSeconds: 3600) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.format(253_402_293_600, offsetSeconds: 3600) == "9999-12-31T23:00:00+01:00")
        #expect(RFC3339.format(-62_135_596_800, offsetSeconds: -3600) == "0000-12-31T23:00:00-01:00")
        // Outside the range the text has more digits or a sign, and does not parse.
        #expect(RFC3339.format(253_402_300_800, offsetSeconds: 0) == "10000-01-01T00:00:00Z")
        #expect(RFC3339.parse("10000-01-01T00:00:00Z") == nil)
        #expect(RFC3339.format(1_772_953_200, in: try zoneNamed("America/New_York")) == "2026-03-08T03:00:00-04:00")
        #expect(RFC3339.format(1_772_953_199, in: try zoneNamed("America/New_York")) == "2026-03-08T01:59:59-05:00")
        #expect(RFC3339.format(1_790_431_200, in: try zoneNamed("Pacific/Chatham")) == "2026-09-27T03:45:00+13:45")
    }

    @Test func roundTrips() throws {
        var rng = TimeTesting.SplitMix64(seed: 3339)
        let offsets = [0, -18_000, -14_400, 3600, 19_800, 20_700, 45_900, 49_500, 50_400, -36_000, -2670]
        for index in 0 ..< 4000 {
            // Every other instant within a day of an end of the range, where the local year
            // can leave 0000–9999 and the text falls back to UTC.
            let instant = index % 2 == 0 ? Int.random(in: RFC3339.instants, using: &rng)
                : index % 4 == 1 ? RFC3339.instants.lowerBound + Int.random(in: 0 ... 86_400, using: &rng)
                : RFC3339.instants.upperBound - Int.random(in: 0 ... 86_400, using: &rng)
            let offset = offsets.randomElement(using: &rng)!
            let text = RFC3339.format(instant, offsetSeconds: offset)
            #expect(RFC3339.parse(text) == instant, "\(instant) \(offset) \(text)")
        }
    }
}

@Suite("Civil dates")
struct TimeCivilDateTests {
    // Day numbers from Python: (date(y, m, d) - date(1970, 1, 1)).days.
    @Test(arguments: [
        (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (1, 1, 1, -719_162),
        (9999, 12, 31, 2_932_896), (1600, 3, 1, -135_080), (2026, 3, 8, 20_520),
    ])
    func dayNumbers(_ y: Int, _ m: Int, _ d: Int, _ days: Int) {
        #expect(CivilDate(year: y, month: m, day: d).days == days)
        #expect(CivilDate(days: days) == CivilDate(year: y, month: m, day: d))
    }

    @Test func roundTripsEveryDayOfFourCenturies() {
        var expected = CivilDate(year: 1800, month: 1, day: 1)
        var weekday = 3                                   // 1800-01-01 was a Wednesday
        for days in CivilDate(year: 1800, month: 1, day: 1).days ... CivilDate(year: 2200, month: 12, day: 31).days {
            let date = CivilDate(days: days)
            #expect(date == expected)
            #expect(date.days == days)
            #expect(CivilDate.weekday(ofDay: days) == weekday)
            if date.day == CivilDate.daysInMonth(year: date.year, month: date.month) {
                expected = date.month == 12
                    ? CivilDate(year: date.year + 1, month: 1, day: 1)
                    : CivilDate(year: date.year, month: date.month + 1, day: 1)
            } else {
                expected.day += 1
            }
            weekday = weekday % 7 + 1
        }
    }

    @Test func validityAndText() {
        #expect(CivilDate(year: 2024, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 1900, month: 2, day: 29).isValid)
        #expect(CivilDate(year: 2000, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 13, day: 1).isValid)
        #expect(CivilDate(year: 2026, month: 3, day: 8).weekday == 7)
        #expect(CivilDate(year: 2026, month: 3, day: 8).description == "2026-03-08")
        #expect(CivilDate(year: 987, month: 1, day: 2).description == "0987-01-02")
    }
}
