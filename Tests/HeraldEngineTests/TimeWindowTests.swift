import Testing
import HeraldContract
import HeraldEngine

@Suite("Zone: cap windows")
struct TimeWindowTests {
    @Test func dayWindowsAreTwentyThreeAndTwentyFiveHoursOnDSTDays() throws {
        let ny = try zoneNamed("America/New_York")
        let spring = ny.window(.day, containing: 1_772_953_200)
        #expect(spring == 1_772_946_000 ..< 1_773_028_800)
        #expect(spring.count == 23 * 3600)
        let fall = ny.window(.day, containing: 1_793_514_600)          // the second 01:30
        #expect(fall == 1_793_505_600 ..< 1_793_595_600)
        #expect(fall.count == 25 * 3600)
        // Every instant of a day window lies on that local date.
        #expect(ny.localDateTime(of: fall.lowerBound).date == civilDay(2026, 11, 1))
        #expect(ny.localDateTime(of: fall.upperBound - 1).date == civilDay(2026, 11, 1))
        #expect(ny.localDateTime(of: fall.upperBound).date == civilDay(2026, 11, 2))
    }

    @Test func lordHoweDaysAreTwentyThreeAndAHalfAndTwentyFourAndAHalfHours() throws {
        let lordHowe = try zoneNamed("Australia/Lord_Howe")
        #expect(lordHowe.window(.day, containing: 1_791_041_400) == 1_791_034_200 ..< 1_791_118_800)
        #expect(lordHowe.window(.day, containing: 1_775_313_900) == 1_775_307_600 ..< 1_775_395_800)
        #expect(lordHowe.window(.day, containing: 1_775_313_900).count == 24 * 3600 + 1800)
    }

    @Test func windowsAtAnOddOffset() throws {
        let kathmandu = try zoneNamed("Asia/Kathmandu")
        let instant = 1_781_110_800                                   // 2026-06-10 22:45 +05:45
        #expect(kathmandu.window(.day, containing: instant) == 1_781_028_900 ..< 1_781_115_300)
        #expect(kathmandu.window(.week, containing: instant) == 1_780_510_500 ..< 1_781_115_300)
        #expect(kathmandu.window(.calendarWeek, containing: instant) == 1_780_856_100 ..< 1_781_460_900)
        #expect(kathmandu.window(.month, containing: instant) == 1_780_251_300 ..< 1_782_843_300)
    }

    @Test func weekIsTheLocalDayAndTheSixBefore() throws {
        let ny = try zoneNamed("America/New_York")
        let wednesdayNoon = 1_781_107_200                             // 2026-06-10 12:00 EDT
        #expect(ny.window(.week, containing: wednesdayNoon) == 1_780_545_600 ..< 1_781_150_400)   // Thu 06-04 ..< Thu 06-11
        #expect(ny.window(.week, containing: wednesdayNoon).count == 7 * 86_400)
    }

    @Test func calendarWeekStartsOnMonday() throws {
        let ny = try zoneNamed("America/New_York")
        #expect(ny.window(.calendarWeek, containing: 1_781_107_200) == 1_780_891_200 ..< 1_781_496_000)   // Mon 06-08 ..< Mon 06-15
        // The week holding the spring-forward Sunday is an hour short.
        let dst = ny.window(.calendarWeek, containing: 1_772_953_200)
        #expect(dst == 1_772_427_600 ..< 1_773_028_800)                                            // Mon 03-02 ..< Mon 03-09
        #expect(dst.count == 7 * 86_400 - 3600)
        // Sunday 23:59:59 is still in the week; Monday 00:00 starts the next.
        #expect(ny.window(.calendarWeek, containing: 1_773_028_799) == dst)
        #expect(ny.window(.calendarWeek, containing: 1_773_028_800).lowerBound == 1_773_028_800)
    }

    @Test func monthIsTheLocalCalendarMonth() throws {
        let ny = try zoneNamed("America/New_York")
        #expect(ny.window(.month, containing: 1_773_590_400) == 1_772_341_200 ..< 1_775_016_000)   // March 2026
        #expect(ny.window(.month, containing: 1_798_779_599) == 1_796_101_200 ..< 1_798_779_600)   // December 2026
        #expect(try zoneNamed("Europe/London").window(.month, containing: 1_773_590_400) == 1_772_323_200 ..< 1_774_998_000)
    }

    @Test func yearIsTheLocalCalendarYear() throws {
        let ny = try zoneNamed("America/New_York")
        // The last second of 2026 in New York is still in 2026; the year runs 365 local days.
        #expect(ny.window(.year, containing: 1_798_779_599) == 1_767_243_600 ..< 1_798_779_600)
        #expect(ny.window(.year, containing: 1_798_779_600).lowerBound == 1_798_779_600)
        // Chatham (+13:45 in summer): the year starts at local midnight, not UTC's.
        #expect(try zoneNamed("Pacific/Chatham").window(.year, containing: 1_782_818_100) == 1_767_176_100 ..< 1_798_712_100)
    }

    @Test func rollingWindowsEndAtTheInstant() throws {
        let ny = try zoneNamed("America/New_York")
        let now = 1_781_107_200
        let twoDays = ny.window(.rolling(48 * 3600), containing: now)
        #expect(twoDays == (now - 48 * 3600 + 1) ..< (now + 1))
        #expect(twoDays.contains(now) && twoDays.contains(now - 48 * 3600 + 1))
        #expect(!twoDays.contains(now - 48 * 3600) && !twoDays.contains(now + 1))
        #expect(ny.window(.rolling(0), containing: now).isEmpty)
        #expect(ny.window(.rolling(-5), containing: now).isEmpty)
        #expect(ny.window(.lifetime, containing: now) == Int.min ..< Int.max)
    }

    @Test func skippedAndRepeatedDates() throws {
        let apia = try zoneNamed("Pacific/Apia")
        // 2011-12-29 ends where 2011-12-31 begins; December 2011 had 30 local days.
        #expect(apia.window(.day, containing: 1_325_235_600) == 1_325_152_800 ..< 1_325_239_200)
        #expect(apia.window(.month, containing: 1_325_235_600) == 1_322_733_600 ..< 1_325_325_600)
        #expect(apia.window(.week, containing: 1_325_455_200) == 1_324_980_000 ..< 1_325_498_400)
        #expect(apia.window(.calendarWeek, containing: 1_325_235_600) == 1_324_893_600 ..< 1_325_412_000)
        // Santiago repeats 23:00–24:00 on Saturday 2026-04-04: a 25-hour day.
        let santiago = try zoneNamed("America/Santiago")
        #expect(santiago.window(.day, containing: 1_775_359_800) == 1_775_271_600 ..< 1_775_361_600)
        // 2026-09-06 began at 01:00.
        #expect(santiago.window(.day, containing: 1_788_667_200) == 1_788_667_200 ..< 1_788_750_000)
    }
}
