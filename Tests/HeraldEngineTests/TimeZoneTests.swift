import Testing
import HeraldContract
import HeraldEngine

// Expected instants were computed independently with Python's zoneinfo (system tzdata),
// e.g. `int(datetime(2026,3,8,3,0,tzinfo=ZoneInfo("America/New_York")).timestamp())`.

func zoneNamed(_ identifier: String) throws -> Zone { try #require(Zone(identifier: identifier)) }

/// Days since 1970-01-01 of a civil date.
func civilDay(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilDate(year: y, month: m, day: d).days }

/// Minutes since midnight.
func wallClock(_ h: Int, _ m: Int) -> Int { h * 60 + m }

@Suite("Zone: identifiers and offsets")
struct TimeZoneIdentifierTests {
    @Test func unknownIdentifiersAreNil() {
        #expect(Zone(identifier: "America/New_Yrok") == nil)
        #expect(Zone(identifier: "") == nil)
        #expect(Zone(identifier: "Mars/Olympus_Mons") == nil)
        #expect(Zone(identifier: "GMT+5") == nil)
        #expect(Zone(identifier: "UTC+01:00") == nil)
        #expect(Zone(identifier: "GMT+0") != nil)   // an IANA link, unlike GMT+5
    }

    @Test func knownIdentifiersKeepTheirSpelling() throws {
        #expect(try zoneNamed("America/New_York").identifier == "America/New_York")
        #expect(try zoneNamed("UTC").identifier == "UTC")
        #expect(try zoneNamed("Etc/GMT+5").offset(at: 0) == -5 * 3600)
        #expect(try zoneNamed("America/New_York") == zoneNamed("America/New_York"))
        #expect(try zoneNamed("America/New_York") != zoneNamed("Europe/London"))
        #expect(Zone.utc.offset(at: 1_781_107_200) == 0)
    }

    @Test func newYorkFollowsTheUSRuleThrough9999() throws {
        // Since 2007: EDT from the second Sunday of March 02:00 EST (07:00Z) to the first
        // Sunday of November 02:00 EDT (06:00Z); the table must hold exactly these changes,
        // listed (to 2037 in the TZif file), by the footer rule, and repeated past 2439.
        let ny = try zoneNamed("America/New_York")
        for year in Array(2007 ... 2900) + Array(9900 ... 9999) {
            let march1 = CivilDate(year: year, month: 3, day: 1).days
            let secondSunday = march1 + (7 - CivilDate.weekday(ofDay: march1)) % 7 + 7
            let november1 = CivilDate(year: year, month: 11, day: 1).days
            let firstSunday = november1 + (7 - CivilDate.weekday(ofDay: november1)) % 7
            let spring = secondSunday * 86_400 + 7 * 3600
            let fall = firstSunday * 86_400 + 6 * 3600
            #expect(ny.offset(at: spring - 1) == -18_000 && ny.offset(at: spring) == -14_400, "\(year)")
            #expect(ny.offset(at: fall - 1) == -14_400 && ny.offset(at: fall) == -18_000, "\(year)")
            #expect(ny.offset(at: (spring + fall) / 2) == -14_400)
            #expect(ny.offset(at: CivilDate(year: year, month: 1, day: 15).days * 86_400) == -18_000)
        }
    }

    @Test func offsetsAroundTransitions() throws {
        let ny = try zoneNamed("America/New_York")
        #expect(ny.offset(at: 1_772_953_199) == -5 * 3600)   // 2026-03-08 01:59:59 EST
        #expect(ny.offset(at: 1_772_953_200) == -4 * 3600)   // 03:00:00 EDT
        #expect(ny.offset(at: 1_793_512_799) == -4 * 3600)   // 2026-11-01 01:59:59 EDT
        #expect(ny.offset(at: 1_793_512_800) == -5 * 3600)   // 01:00:00 EST
        let kathmandu = try zoneNamed("Asia/Kathmandu")
        #expect(kathmandu.offset(at: 504_901_799) == 19_800) // 1985-12-31 23:59:59 +05:30
        #expect(kathmandu.offset(at: 504_901_800) == 20_700) // 1986-01-01 00:15:00 +05:45
        let apia = try zoneNamed("Pacific/Apia")
        #expect(apia.offset(at: 1_325_239_199) == -36_000)   // 2011-12-29 23:59:59 -10:00
        #expect(apia.offset(at: 1_325_239_200) == 50_400)    // 2011-12-31 00:00:00 +14:00
        let chatham = try zoneNamed("Pacific/Chatham")
        #expect(chatham.offset(at: 1_790_431_199) == 45_900) // +12:45
        #expect(chatham.offset(at: 1_790_431_200) == 49_500) // +13:45
    }

    @Test func localDateTimeOfInstants() throws {
        let ny = try zoneNamed("America/New_York")
        // 2026-03-08T07:00:00Z is 03:00:00 EDT on Sunday.
        #expect(ny.localDateTime(of: 1_772_953_200) == LocalDateTime(date: civilDay(2026, 3, 8), time: wallClock(3, 0), second: 0, weekday: 7))
        // One second earlier: 01:59:59 EST.
        #expect(ny.localDateTime(of: 1_772_953_199) == LocalDateTime(date: civilDay(2026, 3, 8), time: wallClock(1, 59), second: 59, weekday: 7))
        // 2026-06-10 23:00 EDT is a Wednesday.
        let june = ny.localDateTime(of: 1_781_146_800)
        #expect(june == LocalDateTime(date: civilDay(2026, 6, 10), time: wallClock(23, 0), second: 0, weekday: 3))
        #expect(june.civilDate == CivilDate(year: 2026, month: 6, day: 10))
        // Before 1970: 1969-12-31T23:59:59Z is 18:59:59 EST on Wednesday 1969-12-31.
        #expect(ny.localDateTime(of: -1) == LocalDateTime(date: -1, time: wallClock(18, 59), second: 59, weekday: 3))
        let kathmandu = try zoneNamed("Asia/Kathmandu")
        // 2026-06-10T17:00:00Z is 22:45 +05:45.
        #expect(kathmandu.localDateTime(of: 1_781_110_800) == LocalDateTime(date: civilDay(2026, 6, 10), time: wallClock(22, 45), second: 0, weekday: 3))
    }

    @Test func absurdInstantsAreClampedInsteadOfTrapping() throws {
        let ny = try zoneNamed("America/New_York")
        let top = Zone.supportedInstants.upperBound
        let bottom = Zone.supportedInstants.lowerBound
        #expect(ny.localDateTime(of: .max) == ny.localDateTime(of: top))
        #expect(ny.localDateTime(of: .min) == ny.localDateTime(of: bottom))
        #expect(ny.nextOccurrence(of: wallClock(7, 0), atOrAfter: .max) >= top)
        #expect(ny.occurrence(of: wallClock(7, 0), on: .min) == ny.occurrence(of: wallClock(7, 0), on: bottom / 86_400 - 1000))
        #expect(ny.deferOutOfQuietHours(.max, QuietHours(start: wallClock(22, 0), end: wallClock(7, 0))) >= top)
        #expect(ny.window(.month, containing: .min).contains(bottom))
        #expect(ny.window(.calendarWeek, containing: .max).contains(top))
        #expect(ny.window(.rolling(.max), containing: .min) == bottom ..< bottom + 1)
        // Times of day are clamped into 0 ..< 1440.
        #expect(ny.occurrence(of: 5000, on: civilDay(2026, 6, 10)) == ny.occurrence(of: 1439, on: civilDay(2026, 6, 10)))
        #expect(ny.occurrence(of: -5, on: civilDay(2026, 6, 10)) == ny.startOfDay(civilDay(2026, 6, 10)))
    }
}

@Suite("Zone: occurrence of a wall-clock time")
struct TimeOccurrenceTests {
    @Test func springForwardGapResolvesToFirstMinuteAfter() throws {
        let ny = try zoneNamed("America/New_York")
        // 02:30 does not exist on 2026-03-08: 03:00 EDT = 07:00Z.
        #expect(ny.occurrence(of: wallClock(2, 30), on: civilDay(2026, 3, 8)) == 1_772_953_200)
        #expect(ny.occurrence(of: wallClock(2, 0), on: civilDay(2026, 3, 8)) == 1_772_953_200)
        #expect(ny.occurrence(of: wallClock(1, 59), on: civilDay(2026, 3, 8)) == 1_772_953_200 - 60)
        #expect(ny.occurrence(of: wallClock(3, 0), on: civilDay(2026, 3, 8)) == 1_772_953_200)
    }

    @Test func fallBackRepeatResolvesToFirstAndIsDeliveredOnce() throws {
        let ny = try zoneNamed("America/New_York")
        let first = 1_793_511_000     // 2026-11-01 01:30 EDT = 05:30Z
        let second = 1_793_514_600    // 01:30 EST = 06:30Z
        #expect(ny.occurrence(of: wallClock(1, 30), on: civilDay(2026, 11, 1)) == first)
        #expect(ny.nextOccurrence(of: wallClock(1, 30), atOrAfter: 1_793_505_600) == first)  // from local midnight
        #expect(ny.nextOccurrence(of: wallClock(1, 30), atOrAfter: first) == first)
        // After the first 01:30 the next one is the next day's, never the repeat.
        let next = ny.nextOccurrence(of: wallClock(1, 30), atOrAfter: first + 1)
        #expect(next != second)
        #expect(next == 1_793_601_000)   // 2026-11-02 01:30 EST
        #expect(ny.nextOccurrence(of: wallClock(1, 30), atOrAfter: second) == 1_793_601_000)
    }

    @Test func londonChangesAtOneInTheMorning() throws {
        let london = try zoneNamed("Europe/London")
        // 2026-03-29: 01:00 GMT jumps to 02:00 BST; 01:30 → 02:00 BST = 01:00Z.
        #expect(london.occurrence(of: wallClock(1, 30), on: civilDay(2026, 3, 29)) == 1_774_746_000)
        #expect(london.occurrence(of: wallClock(0, 59), on: civilDay(2026, 3, 29)) == 1_774_746_000 - 3600 + 59 * 60)
        // 2026-10-25: 01:30 happens twice; the first is 01:30 BST = 00:30Z.
        #expect(london.occurrence(of: wallClock(1, 30), on: civilDay(2026, 10, 25)) == 1_792_888_200)
        #expect(london.nextOccurrence(of: wallClock(1, 30), atOrAfter: 1_792_888_201) == 1_792_978_200)
    }

    @Test func lordHoweHalfHourChanges() throws {
        let lordHowe = try zoneNamed("Australia/Lord_Howe")
        // 2026-10-04: 02:00 +10:30 jumps to 02:30 +11:00; 02:15 → 02:30 = 15:30Z the day before.
        #expect(lordHowe.occurrence(of: wallClock(2, 15), on: civilDay(2026, 10, 4)) == 1_791_041_400)
        #expect(lordHowe.occurrence(of: wallClock(2, 0), on: civilDay(2026, 10, 4)) == 1_791_041_400)
        #expect(lordHowe.occurrence(of: wallClock(2, 30), on: civilDay(2026, 10, 4)) == 1_791_041_400)
        // 2026-04-05: 02:00 +11:00 falls back to 01:30 +10:30; 01:45 happens twice.
        #expect(lordHowe.occurrence(of: wallClock(1, 45), on: civilDay(2026, 4, 5)) == 1_775_313_900)
        #expect(lordHowe.nextOccurrence(of: wallClock(1, 45), atOrAfter: 1_775_313_901) == 1_775_402_100)
    }

    @Test func kathmanduSkippedQuarterHour() throws {
        let kathmandu = try zoneNamed("Asia/Kathmandu")
        // 1986-01-01: +05:30 became +05:45 at midnight, so 00:00–00:15 never happened.
        #expect(kathmandu.startOfDay(civilDay(1986, 1, 1)) == 504_901_800)
        #expect(kathmandu.occurrence(of: wallClock(0, 10), on: civilDay(1986, 1, 1)) == 504_901_800)
        #expect(kathmandu.occurrence(of: wallClock(0, 15), on: civilDay(1986, 1, 1)) == 504_901_800)
        #expect(kathmandu.occurrence(of: wallClock(0, 16), on: civilDay(1986, 1, 1)) == 504_901_860)
    }

    @Test func chathamQuarterHourOffsets() throws {
        let chatham = try zoneNamed("Pacific/Chatham")
        // 2026-09-27: 02:45 +12:45 jumps to 03:45 +13:45; 03:00 → 03:45 = 14:00Z the day before.
        #expect(chatham.occurrence(of: wallClock(3, 0), on: civilDay(2026, 9, 27)) == 1_790_431_200)
        // 2026-04-05: 03:45 +13:45 falls back to 02:45 +12:45; 03:00 first at +13:45.
        #expect(chatham.occurrence(of: wallClock(3, 0), on: civilDay(2026, 4, 5)) == 1_775_308_500)
        #expect(chatham.nextOccurrence(of: wallClock(3, 0), atOrAfter: 1_775_308_501) == 1_775_398_500)  // 2026-04-06 03:00 +12:45
    }

    @Test func apiaSkippedADate() throws {
        let apia = try zoneNamed("Pacific/Apia")
        // Samoa crossed the date line: 2011-12-29 23:59:59 -10:00 was followed by
        // 2011-12-31 00:00:00 +14:00.
        #expect(apia.occurrence(of: wallClock(19, 0), on: civilDay(2011, 12, 30)) == nil)
        #expect(apia.occurrence(of: 0, on: civilDay(2011, 12, 30)) == nil)
        #expect(apia.startOfDay(civilDay(2011, 12, 30)) == nil)
        #expect(apia.startOfDay(civilDay(2011, 12, 31)) == 1_325_239_200)
        #expect(apia.startOfDay(civilDay(2011, 12, 29)) == 1_325_152_800)
        // From 2011-12-29 20:00 -10:00, the next 19:00 is 2011-12-31 19:00 +14:00.
        #expect(apia.nextOccurrence(of: wallClock(19, 0), atOrAfter: 1_325_224_800) == 1_325_307_600)
    }

    @Test func zonesWhoseMidnightIsSkipped() throws {
        // America/Santiago 2026-09-06: 24:00 -04 → 01:00 -03.
        #expect(try zoneNamed("America/Santiago").startOfDay(civilDay(2026, 9, 6)) == 1_788_667_200)
        // America/Havana 2026-03-08: 00:00 -05 → 01:00 -04.
        #expect(try zoneNamed("America/Havana").startOfDay(civilDay(2026, 3, 8)) == 1_772_946_000)
        // Asia/Beirut 2026-03-29: 00:00 +02 → 01:00 +03.
        #expect(try zoneNamed("Asia/Beirut").startOfDay(civilDay(2026, 3, 29)) == 1_774_735_200)
        #expect(try zoneNamed("Asia/Beirut").occurrence(of: wallClock(0, 30), on: civilDay(2026, 3, 29)) == 1_774_735_200)
    }

    @Test func ordinaryDaysAndTimes() throws {
        let ny = try zoneNamed("America/New_York")
        #expect(ny.startOfDay(civilDay(2026, 6, 10)) == 1_781_064_000)              // 04:00Z
        #expect(ny.occurrence(of: wallClock(19, 0), on: civilDay(2026, 6, 10)) == 1_781_132_400)
        #expect(ny.nextOccurrence(of: wallClock(19, 0), atOrAfter: 1_781_132_400) == 1_781_132_400)
        #expect(ny.nextOccurrence(of: wallClock(19, 0), atOrAfter: 1_781_132_401) == 1_781_132_400 + 86_400)
        #expect(ny.occurrence(of: wallClock(23, 59), on: civilDay(2026, 6, 10)) == 1_781_150_340)
    }
}

@Suite("Zone: training days and zone changes")
struct TimeTrainingDayTests {
    @Test func nextTrainingDayPicksTheNextTrainingWeekday() throws {
        let ny = try zoneNamed("America/New_York")
        let wednesdayNoon = 1_781_107_200          // 2026-06-10 12:00 EDT, a Wednesday
        let monWedFri: Weekdays = [.monday, .wednesday, .friday]
        // Wednesday 19:00 is still ahead.
        #expect(nextTrainingDay(reminderTime: wallClock(19, 0), trainingDays: monWedFri, in: ny, atOrAfter: wednesdayNoon) == 1_781_132_400)
        // From Wednesday 19:00:01, Friday 2026-06-12 19:00 EDT.
        #expect(nextTrainingDay(reminderTime: wallClock(19, 0), trainingDays: monWedFri, in: ny, atOrAfter: 1_781_132_401) == 1_781_132_400 + 2 * 86_400)
        // Only Tuesdays: 2026-06-16 19:00 EDT.
        #expect(nextTrainingDay(reminderTime: wallClock(19, 0), trainingDays: .tuesday, in: ny, atOrAfter: wednesdayNoon) == 1_781_132_400 + 6 * 86_400)
        #expect(nextTrainingDay(reminderTime: wallClock(19, 0), trainingDays: [], in: ny, atOrAfter: wednesdayNoon) == nil)
        // Sunday 2026-03-08 02:30 on the spring-forward day resolves to 03:00 EDT.
        #expect(nextTrainingDay(reminderTime: wallClock(2, 30), trainingDays: .sunday, in: ny, atOrAfter: wednesdayNoon - 100 * 86_400) == 1_772_953_200)
    }

    @Test func weekdaySets() {
        #expect(Weekdays(weekdays: [1, 3, 5]) == [.monday, .wednesday, .friday])
        #expect(Weekdays(weekday: 7) == .sunday)
        #expect(Weekdays(weekday: 0).isEmpty && Weekdays(weekday: 8).isEmpty)
        #expect(Weekdays.all.contains(weekday: 7) && !Weekdays.all.contains(weekday: 8))
    }

    @Test func zoneChangeKeepsWallClock() throws {
        let ny = try zoneNamed("America/New_York")
        let london = try zoneNamed("Europe/London")
        // 2026-06-10 19:00 EDT = 23:00Z re-planned in London: 19:00 BST = 18:00Z.
        #expect(london.sameWallClock(1_781_132_400, from: ny) == 1_781_114_400)
        #expect(london.localDateTime(of: london.sameWallClock(1_781_132_400, from: ny)).time == wallClock(19, 0))
        // Into a gap: 2026-03-08 02:30 in London (no DST that day) moved to New York → 03:00 EDT.
        let londonHalfPastTwo = 1_772_937_000   // 2026-03-08T02:30:00Z
        #expect(ny.sameWallClock(londonHalfPastTwo, from: try zoneNamed("UTC")) == 1_772_953_200)
        // Onto a skipped date: 2011-12-30 19:00 UTC moved to Apia → start of 2011-12-31.
        #expect(try zoneNamed("Pacific/Apia").sameWallClock(1_325_271_600, from: Zone.utc) == 1_325_239_200)
    }
}

/// The zone cache answers lookups without a lock once a zone is built: many threads resolving
/// the same zones (first sight and repeats, in different orders, mixed with unknown names)
/// all get each zone's own table.
@Suite("Zone: the shared cache under concurrent lookups")
struct ZoneCacheConcurrencyTests {
    static let names = [
        "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham",
        "Pacific/Apia", "America/Los_Angeles", "Europe/Berlin", "Asia/Tokyo", "Africa/Cairo",
        "America/Sao_Paulo", "Asia/Kolkata", "Australia/Adelaide", "America/St_Johns", "Europe/Dublin",
        "Asia/Tehran", "Pacific/Kiritimati", "America/Santiago", "Europe/Moscow", "Etc/GMT-14",
    ]
    static let unknown = ["Mars/Olympus_Mons", "America/New_Yrok", "GMT+5", "Europe/Londonn"]
    /// 2026-03-29 01:30 UTC, inside Europe's spring-forward hour, and a mid-year instant.
    static let instants = [1_774_747_800, 1_782_000_000]

    @Test func concurrentLookupsAgreeWithSequentialOnes() async {
        let results = await withTaskGroup(of: [String].self) { group in
            for worker in 0 ..< 8 {
                group.addTask {
                    var seen: [String] = []
                    for round in 0 ..< 40 {
                        let start = (worker * 7 + round) % Self.names.count
                        for name in Self.names[start...] + Self.names[..<start] + Self.unknown {
                            guard let zone = Zone(identifier: name) else { seen.append("\(name): nil"); continue }
                            seen.append("\(zone.identifier): \(Self.instants.map { zone.offset(at: $0) })")
                        }
                    }
                    return seen.sorted()
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var expected: [String] = []
        for _ in 0 ..< 40 {
            for name in Self.names + Self.unknown {
                guard let zone = Zone(identifier: name) else { expected.append("\(name): nil"); continue }
                expected.append("\(zone.identifier): \(Self.instants.map { zone.offset(at: $0) })")
            }
        }
        #expect(results.count == 8)
        for result in results { #expect(result == expected.sorted()) }
    }
}
