import Testing
import HeraldContract
import HeraldEngine

@Suite("Zone: quiet hours")
struct TimeQuietHoursTests {
    let night = QuietHours(start: wallClock(22, 0), end: wallClock(7, 0))

    @Test func nightQuietHoursDeferToSevenNextMorning() throws {
        let ny = try zoneNamed("America/New_York")
        // An ordinary night: 2026-06-10 23:00 EDT → 2026-06-11 07:00 EDT.
        #expect(ny.deferOutOfQuietHours(1_781_146_800, night) == 1_781_175_600)
        // The spring-forward night: 2026-03-07 23:00 EST → 2026-03-08 07:00 EDT (7 h later).
        #expect(ny.deferOutOfQuietHours(1_772_942_400, night) == 1_772_967_600)
        // The fall-back night: 2026-10-31 23:00 EDT → 2026-11-01 07:00 EST (9 h later).
        #expect(ny.deferOutOfQuietHours(1_793_502_000, night) == 1_793_534_400)
    }

    @Test func boundariesAreHalfOpen() throws {
        let ny = try zoneNamed("America/New_York")
        #expect(ny.isQuiet(1_781_143_199, night) == false)               // 21:59:59
        #expect(ny.isQuiet(1_781_143_200, night))                        // 22:00:00
        #expect(ny.isQuiet(1_781_175_599, night))                        // 06:59:59
        #expect(ny.isQuiet(1_781_175_600, night) == false)               // 07:00:00
        #expect(ny.deferOutOfQuietHours(1_781_175_570, night) == 1_781_175_600)  // 06:59:30 → 07:00
        #expect(ny.deferOutOfQuietHours(1_781_143_199, night) == 1_781_143_199)  // not quiet: unchanged
        #expect(ny.deferOutOfQuietHours(1_781_175_600, night) == 1_781_175_600)
    }

    @Test func emptyQuietHoursAreNeverQuiet() throws {
        let ny = try zoneNamed("America/New_York")
        let none = QuietHours(start: wallClock(7, 0), end: wallClock(7, 0))
        #expect(none.isEmpty)
        #expect(ny.isQuiet(1_781_175_600, none) == false)
        #expect(ny.deferOutOfQuietHours(1_781_175_600, none) == 1_781_175_600)
    }

    @Test func daytimeQuietHoursThatDoNotCrossMidnight() throws {
        let ny = try zoneNamed("America/New_York")
        let lunch = QuietHours(start: wallClock(12, 0), end: wallClock(13, 0))
        #expect(ny.deferOutOfQuietHours(1_781_109_000, lunch) == 1_781_110_800)   // 12:30 → 13:00
        #expect(ny.isQuiet(1_781_146_800, lunch) == false)                        // 23:00
    }

    @Test func quietHoursEndingInsideAGapEndAtTheGap() throws {
        let ny = try zoneNamed("America/New_York")
        // Quiet 01:00–02:30 on 2026-03-08: 02:30 never happens, so 01:15 EST waits until
        // the clock jumps to 03:00 EDT.
        let q = QuietHours(start: wallClock(1, 0), end: wallClock(2, 30))
        #expect(ny.deferOutOfQuietHours(1_772_950_500, q) == 1_772_953_200)
    }

    @Test func repeatedQuietTimeIsQuietBothTimes() throws {
        let ny = try zoneNamed("America/New_York")
        // Quiet 01:00–01:30 on 2026-11-01 (01:00–02:00 happens twice).
        let q = QuietHours(start: wallClock(1, 0), end: wallClock(1, 30))
        #expect(ny.deferOutOfQuietHours(1_793_509_800, q) == 1_793_511_000)   // 01:10 EDT → 01:30 EDT
        #expect(ny.deferOutOfQuietHours(1_793_512_800, q) == 1_793_514_600)   // 01:00 EST → 01:30 EST
    }

    @Test func lordHoweHalfHourChangeNights() throws {
        let lordHowe = try zoneNamed("Australia/Lord_Howe")
        // 2026-10-03 23:00 +10:30 → 2026-10-04 07:00 +11:00.
        #expect(lordHowe.deferOutOfQuietHours(1_791_030_600, night) == 1_791_057_600)
        // 2026-04-04 23:00 +11:00 → 2026-04-05 07:00 +10:30.
        #expect(lordHowe.deferOutOfQuietHours(1_775_304_000, night) == 1_775_334_600)
        // Quiet 01:00–02:15 on 2026-10-04: 02:15 is in the 02:00–02:30 gap; 01:30 → 02:30.
        let q = QuietHours(start: wallClock(1, 0), end: wallClock(2, 15))
        #expect(lordHowe.deferOutOfQuietHours(1_791_039_600, q) == 1_791_041_400)
    }

    @Test func oddOffsets() throws {
        // Kathmandu +05:45: 2026-06-10 22:45 → 2026-06-11 07:00 = 01:15Z.
        #expect(try zoneNamed("Asia/Kathmandu").deferOutOfQuietHours(1_781_110_800, night) == 1_781_140_500)
        // Chatham +12:45, quiet 21:30–06:45: 2026-06-10 23:00 → 2026-06-11 06:45.
        let q = QuietHours(start: wallClock(21, 30), end: wallClock(6, 45))
        #expect(try zoneNamed("Pacific/Chatham").deferOutOfQuietHours(1_781_086_500, q) == 1_781_114_400)
    }

    @Test func apiaQuietNightAcrossTheSkippedDate() throws {
        let apia = try zoneNamed("Pacific/Apia")
        // 2011-12-29 23:00 -10:00 → 2011-12-31 07:00 +14:00 (2011-12-30 never happened).
        #expect(apia.deferOutOfQuietHours(1_325_235_600, night) == 1_325_264_400)
        // Quiet 23:00–01:00 from 2011-12-29 23:30 → 2011-12-31 01:00.
        let q = QuietHours(start: wallClock(23, 0), end: wallClock(1, 0))
        #expect(apia.deferOutOfQuietHours(1_325_237_400, q) == 1_325_242_800)
    }
}
