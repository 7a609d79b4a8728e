import Testing
import HeraldEngine

// Expected instants were computed independently with Python's zoneinfo (system tzdata),
// e.g. `int(datetime(2026,3,8,3,0,tzinfo=ZoneInfo("America/New_York")).timestamp())`.

func zone(_ identifier: String) throws -> Zone { try #require(Zone(identifier: identifier)) }

/// Days since 1970-01-01 of a civil date.
func day(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilDate(year: y, month: m, day: d).days }

/// Minutes since midnight.
func hm(_ h: Int, _ m: Int) -> Int { h * 60 + m }

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
        #expect(try zone("America/New_York").identifier == "America/New_York")
        #expect(try zone("UTC").identifier == "UTC")
        #expect(try zone("Etc/GMT+5").offset(at: 0) == -5 * 3600)
        #expect(try zone("America/New_York") == zone("America/New_York"))
        #expect(try zone("America/New_York") != zone("Europe/London"))
        #expect(Zone.utc.offset(at: 1_781_107_200) == 0)
    }

    @Test func newYorkFollowsTheUSRuleThrough2100() throws {
        // Since 2007: EDT from the second Sunday of March 02:00 EST (07:00Z) to the first
        // Sunday of November 02:00 EDT (06:00Z); the table must hold exactly these changes.
        let ny = try zone("America/New_York")
        for year in 2007 ... 2100 {
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
        let ny = try zone("America/New_York")
        #expect(ny.offset(at: 1_772_953_199) == -5 * 3600)   // 2026-03-08 01:59:59 EST
        #expect(ny.offset(at: 1_772_953_200) == -4 * 3600)   // 03:00:00 EDT
        #expect(ny.offset(at: 1_793_512_799) == -4 * 3600)   // 2026-11-01 01:59:59 EDT
        #expect(ny.offset(at: 1_793_512_800) == -5 * 3600)   // 01:00:00 EST
        let kathmandu = try zone("Asia/Kathmandu")
        #expect(kathmandu.offset(at: 504_901_799) == 19_800) // 1985-12-31 23:59:59 +05:30
        #expect(kathmandu.offset(at: 504_901_800) == 20_700) // 1986-01-01 00:15:00 +05:45
        let apia = try zone("Pacific/Apia")
        #expect(apia.offset(at: 1_325_239_199) == -36_000)   // 2011-12-29 23:59:59 -10:00
        #expect(apia.offset(at: 1_325_239_200) == 50_400)    // 2011-12-31 00:00:00 +14:00
        let chatham = try zone("Pacific/Chatham")
        #expect(chatham.offset(at: 1_790_431_199) == 45_900) // +12:45
        #expect(chatham.offset(at: 1_790_431_200) == 49_500) // +13:45
    }

    @Test func localDateTimeOfInstants() throws {
        let ny = try zone("America/New_York")
        // 2026-03-08T07:00:00Z is 03:00:00 EDT on Sunday.
        #expect(ny.localDateTime(of: 1_772_953_200) == LocalDateTime(date: day(2026, 3, 8), time: hm(3, 0), second: 0, weekday: 7))
        // One second earlier: 01:59:59 EST.
        #expect(ny.localDateTime(of: 1_772_953_199) == LocalDateTime(date: day(2026, 3, 8), time: hm(1, 59), second: 59, weekday: 7))
        // 2026-06-10 23:00 EDT is a Wednesday.
        let june = ny.localDateTime(of: 1_781_146_800)
        #expect(june == LocalDateTime(date: day(2026, 6, 10), time: hm(23, 0), second: 0, weekday: 3))
        #expect(june.civilDate == CivilDate(year: 2026, month: 6, day: 10))
        // Before 1970: 1969-12-31T23:59:59Z is 18:59:59 EST on Wednesday 1969-12-31.
        #expect(ny.localDateTime(of: -1) == LocalDateTime(date: -1, time: hm(18, 59), second: 59, weekday: 3))
        let kathmandu = try zone("Asia/Kathmandu")
        // 2026-06-10T17:00:00Z is 22:45 +05:45.
        #expect(kathmandu.localDateTime(of: 1_781_110_800) == LocalDateTime(date: day(2026, 6, 10), time: hm(22, 45), second: 0, weekday: 3))
    }

    @Test func absurdInstantsDoNotTrap() throws {
        let ny = try zone("America/New_York")
        _ = ny.localDateTime(of: .max)
        _ = ny.localDateTime(of: .min)
        _ = ny.nextOccurrence(of: hm(7, 0), atOrAfter: .max)
        _ = ny.occurrence(of: hm(7, 0), on: .min)
        _ = ny.deferOutOfQuietHours(.max, QuietHours(start: hm(22, 0), end: hm(7, 0)))
        _ = ny.window(.month, containing: .min)
        #expect(ny.window(.rolling(.max), containing: .min).count >= 0)
    }
}

@Suite("Zone: occurrence of a wall-clock time")
struct TimeOccurrenceTests {
    @Test func springForwardGapResolvesToFirstMinuteAfter() throws {
        let ny = try zone("America/New_York")
        // 02:30 does not exist on 2026-03-08: 03:00 EDT = 07:00Z.
        #expect(ny.occurrence(of: hm(2, 30), on: day(2026, 3, 8)) == 1_772_953_200)
        #expect(ny.occurrence(of: hm(2, 0), on: day(2026, 3, 8)) == 1_772_953_200)
        #expect(ny.occurrence(of: hm(1, 59), on: day(2026, 3, 8)) == 1_772_953_200 - 60)
        #expect(ny.occurrence(of: hm(3, 0), on: day(2026, 3, 8)) == 1_772_953_200)
    }

    @Test func fallBackRepeatResolvesToFirstAndIsDeliveredOnce() throws {
        let ny = try zone("America/New_York")
        let first = 1_793_511_000     // 2026-11-01 01:30 EDT = 05:30Z
        let second = 1_793_514_600    // 01:30 EST = 06:30Z
        #expect(ny.occurrence(of: hm(1, 30), on: day(2026, 11, 1)) == first)
        #expect(ny.nextOccurrence(of: hm(1, 30), atOrAfter: 1_793_505_600) == first)  // from local midnight
        #expect(ny.nextOccurrence(of: hm(1, 30), atOrAfter: first) == first)
        // After the first 01:30 the next one is the next day's, never the repeat.
        let next = ny.nextOccurrence(of: hm(1, 30), atOrAfter: first + 1)
        #expect(next != second)
        #expect(next == 1_793_601_000)   // 2026-11-02 01:30 EST
        #expect(ny.nextOccurrence(of: hm(1, 30), atOrAfter: second) == 1_793_601_000)
    }

    @Test func londonChangesAtOneInTheMorning() throws {
        let london = try zone("Europe/London")
        // 2026-03-29: 01:00 GMT jumps to 02:00 BST; 01:30 → 02:00 BST = 01:00Z.
        #expect(london.occurrence(of: hm(1, 30), on: day(2026, 3, 29)) == 1_774_746_000)
        #expect(london.occurrence(of: hm(0, 59), on: day(2026, 3, 29)) == 1_774_746_000 - 3600 + 59 * 60)
        // 2026-10-25: 01:30 happens twice; the first is 01:30 BST = 00:30Z.
        #expect(london.occurrence(of: hm(1, 30), on: day(2026, 10, 25)) == 1_792_888_200)
        #expect(london.nextOccurrence(of: hm(1, 30), atOrAfter: 1_792_888_201) == 1_792_978_200)
    }

    @Test func lordHoweHalfHourChanges() throws {
        let lordHowe = try zone("Australia/Lord_Howe")
        // 2026-10-04: 02:00 +10:30 jumps to 02:30 +11:00; 02:15 → 02:30 = 15:30Z the day before.
        #expect(lordHowe.occurrence(of: hm(2, 15), on: day(2026, 10, 4)) == 1_791_041_400)
        #expect(lordHowe.occurrence(of: hm(2, 0), on: day(2026, 10, 4)) == 1_791_041_400)
        #expect(lordHowe.occurrence(of: hm(2, 30), on: day(2026, 10, 4)) == 1_791_041_400)
        // 2026-04-05: 02:00 +11:00 falls back to 01:30 +10:30; 01:45 happens twice.
        #expect(lordHowe.occurrence(of: hm(1, 45), on: day(2026, 4, 5)) == 1_775_313_900)
        #expect(lordHowe.nextOccurrence(of: hm(1, 45), atOrAfter: 1_775_313_901) == 1_775_402_100)
    }

    @Test func kathmanduSkippedQuarterHour() throws {
        let kathmandu = try zone("Asia/Kathmandu")
        // 1986-01-01: +05:30 became +05:45 at midnight, so 00:00–00:15 never happened.
        #expect(kathmandu.startOfDay(day(1986, 1, 1)) == 504_901_800)
        #expect(kathmandu.occurrence(of: hm(0, 10), on: day(1986, 1, 1)) == 504_901_800)
        #expect(kathmandu.occurrence(of: hm(0, 15), on: day(1986, 1, 1)) == 504_901_800)
        #expect(kathmandu.occurrence(of: hm(0, 16), on: day(1986, 1, 1)) == 504_901_860)
    }

    @Test func chathamQuarterHourOffsets() throws {
        let chatham = try zone("Pacific/Chatham")
        // 2026-09-27: 02:45 +12:45 jumps to 03:45 +13:45; 03:00 → 03:45 = 14:00Z the day before.
        #expect(chatham.occurrence(of: hm(3, 0), on: day(2026, 9, 27)) == 1_790_431_200)
        // 2026-04-05: 03:45 +13:45 falls back to 02:45 +12:45; 03:00 first at +13:45.
        #expect(chatham.occurrence(of: hm(3, 0), on: day(2026, 4, 5)) == 1_775_308_500)
        #expect(chatham.nextOccurrence(of: hm(3, 0), atOrAfter: 1_775_308_501) == 1_775_398_500)  // 2026-04-06 03:00 +12:45
    }

    @Test func apiaSkippedADate() throws {
        let apia = try zone("Pacific/Apia")
        // Samoa crossed the date line: 2011-12-29 23:59:59 -10:00 was followed by
        // 2011-12-31 00:00:00 +14:00.
        #expect(apia.occurrence(of: hm(19, 0), on: day(2011, 12, 30)) == nil)
        #expect(apia.occurrence(of: 0, on: day(2011, 12, 30)) == nil)
        #expect(apia.startOfDay(day(2011, 12, 30)) == nil)
        #expect(apia.startOfDay(day(2011, 12, 31)) == 1_325_239_200)
        #expect(apia.startOfDay(day(2011, 12, 29)) == 1_325_152_800)
        // From 2011-12-29 20:00 -10:00, the next 19:00 is 2011-12-31 19:00 +14:00.
        #expect(apia.nextOccurrence(of: hm(19, 0), atOrAfter: 1_325_224_800) == 1_325_307_600)
    }

    @Test func zonesWhoseMidnightIsSkipped() throws {
        // America/Santiago 2026-09-06: 24:00 -04 → 01:00 -03.
        #expect(try zone("America/Santiago").startOfDay(day(2026, 9, 6)) == 1_788_667_200)
        // America/Havana 2026-03-08: 00:00 -05 → 01:00 -04.
        #expect(try zone("America/Havana").startOfDay(day(2026, 3, 8)) == 1_772_946_000)
        // Asia/Beirut 2026-03-29: 00:00 +02 → 01:00 +03.
        #expect(try zone("Asia/Beirut").startOfDay(day(2026, 3, 29)) == 1_774_735_200)
        #expect(try zone("Asia/Beirut").occurrence(of: hm(0, 30), on: day(2026, 3, 29)) == 1_774_735_200)
    }

    @Test func ordinaryDaysAndTimes() throws {
        let ny = try zone("America/New_York")
        #expect(ny.startOfDay(day(2026, 6, 10)) == 1_781_064_000)              // 04:00Z
        #expect(ny.occurrence(of: hm(19, 0), on: day(2026, 6, 10)) == 1_781_132_400)
        #expect(ny.nextOccurrence(of: hm(19, 0), atOrAfter: 1_781_132_400) == 1_781_132_400)
        #expect(ny.nextOccurrence(of: hm(19, 0), atOrAfter: 1_781_132_401) == 1_781_132_400 + 86_400)
        #expect(ny.occurrence(of: hm(23, 59), on: day(2026, 6, 10)) == 1_781_150_340)
    }
}

@Suite("Zone: training days and zone changes")
struct TimeTrainingDayTests {
    @Test func nextTrainingDayPicksTheNextTrainingWeekday() throws {
        let ny = try zone("America/New_York")
        let wednesdayNoon = 1_781_107_200          // 2026-06-10 12:00 EDT, a Wednesday
        let monWedFri: Weekdays = [.monday, .wednesday, .friday]
        // Wednesday 19:00 is still ahead.
        #expect(nextTrainingDay(reminderTime: hm(19, 0), trainingDays: monWedFri, in: ny, atOrAfter: wednesdayNoon) == 1_781_132_400)
        // From Wednesday 19:00:01, Friday 2026-06-12 19:00 EDT.
        #expect(nextTrainingDay(reminderTime: hm(19, 0), trainingDays: monWedFri, in: ny, atOrAfter: 1_781_132_401) == 1_781_132_400 + 2 * 86_400)
        // Only Tuesdays: 2026-06-16 19:00 EDT.
        #expect(nextTrainingDay(reminderTime: hm(19, 0), trainingDays: .tuesday, in: ny, atOrAfter: wednesdayNoon) == 1_781_132_400 + 6 * 86_400)
        #expect(nextTrainingDay(reminderTime: hm(19, 0), trainingDays: [], in: ny, atOrAfter: wednesdayNoon) == nil)
        // Sunday 2026-03-08 02:30 on the spring-forward day resolves to 03:00 EDT.
        #expect(nextTrainingDay(reminderTime: hm(2, 30), trainingDays: .sunday, in: ny, atOrAfter: wednesdayNoon - 100 * 86_400) == 1_772_953_200)
    }

    @Test func weekdaySets() {
        #expect(Weekdays(weekdays: [1, 3, 5]) == [.monday, .wednesday, .friday])
        #expect(Weekdays(weekday: 7) == .sunday)
        #expect(Weekdays(weekday: 0).isEmpty && Weekdays(weekday: 8).isEmpty)
        #expect(Weekdays.all.contains(weekday: 7) && !Weekdays.all.contains(weekday: 8))
    }

    @Test func zoneChangeKeepsWallClock() throws {
        let ny = try zone("America/New_York")
        let london = try zone("Europe/London")
        // 2026-06-10 19:00 EDT = 23:00Z re-planned in London: 19:00 BST = 18:00Z.
        #expect(london.sameWallClock(1_781_132_400, from: ny) == 1_781_114_400)
        #expect(london.localDateTime(of: london.sameWallClock(1_781_132_400, from: ny)).time == hm(19, 0))
        // Into a gap: 2026-03-08 02:30 in London (no DST that day) moved to New York → 03:00 EDT.
        let londonHalfPastTwo = 1_772_937_000   // 2026-03-08T02:30:00Z
        #expect(ny.sameWallClock(londonHalfPastTwo, from: try zone("UTC")) == 1_772_953_200)
        // Onto a skipped date: 2011-12-30 19:00 UTC moved to Apia → start of 2011-12-31.
        #expect(try zone("Pacific/Apia").sameWallClock(1_325_271_600, from: Zone.utc) == 1_325_239_200)
    }
}
