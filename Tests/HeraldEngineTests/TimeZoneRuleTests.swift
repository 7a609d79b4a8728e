import Foundation
import Testing
import HeraldContract
@testable import HeraldEngine

// Expected instants and offsets were computed independently: with Python's zoneinfo
// (system tzdata 2025b) for real zones, and with glibc's POSIX TZ code (`TZ=… tzset()`,
// `localtime`) for TZ strings. CPython's zoneinfo reads the zero-based `n` date form one
// day early (`0` is December 31), so glibc is the reference for that form.

@Suite("Zone: history before 1970 and the rule after the listed transitions")
struct TimeZoneHistoryTests {
    @Test func londonWasOnGreenwichTimeIn1900AndLocalMeanTimeBefore1847() throws {
        let london = try zoneNamed("Europe/London")
        #expect(london.offset(at: -2_208_945_600) == 0)            // 1900-01-01T12:00Z, GMT
        #expect(london.offset(at: -3_852_705_600) == -75)          // 1847-11-30T12:00Z, LMT −00:01:15
        // LMT until 1847-12-01 00:00 LMT, which was 00:01:15Z.
        #expect(london.offset(at: -3_852_662_326) == -75)
        #expect(london.offset(at: -3_852_662_325) == 0)
        #expect(RFC3339.format(-3_852_705_600, in: london) == "1847-11-30T12:00:00Z")   // seconds: UTC
    }

    @Test func historicOffsetsOfOtherZones() throws {
        #expect(try zoneNamed("Asia/Kathmandu").offset(at: -2_208_988_800) == 20_476)   // 1900: LMT +05:41:16
        let newYork = try zoneNamed("America/New_York")
        #expect(newYork.offset(at: -2_717_650_801) == -17_762)     // LMT −04:56:02 until 1883-11-18 12:03:58
        #expect(newYork.offset(at: -2_717_650_800) == -18_000)
        #expect(newYork.offset(at: -905_101_200) == -14_400)       // 1941: New York City's own DST
    }

    @Test func monroviaOffsetWithSecondsIsWrittenExactlyInUTC() throws {
        let monrovia = try zoneNamed("Africa/Monrovia")
        let instant = 13_089_600                                   // 1970-06-01T12:00:00Z
        #expect(monrovia.offset(at: instant) == -2670)             // −00:44:30 until 1972
        let local = monrovia.localDateTime(of: instant)
        #expect(local.time == wallClock(11, 15) && local.second == 30)
        let text = RFC3339.format(instant, in: monrovia)
        #expect(text == "1970-06-01T12:00:00Z")
        #expect(RFC3339.parse(text) == instant)
        // Since 1972-01-07 Monrovia is on GMT.
        #expect(monrovia.offset(at: 63_676_800) == 0)
    }

    @Test func newYorkKeepsDaylightSavingTimeAfter2100() throws {
        let newYork = try zoneNamed("America/New_York")
        // 19:00 on 2101-07-15 is 19:00 EDT = 23:00Z.
        #expect(newYork.occurrence(of: wallClock(19, 0), on: civilDay(2101, 7, 15)) == 4_150_911_600)
        #expect(newYork.offset(at: CivilDate(year: 2101, month: 1, day: 15).days * 86_400) == -18_000)
        #expect(RFC3339.format(4_150_911_600, in: newYork) == "2101-07-15T19:00:00-04:00")
    }

    @Test func lordHoweKeepsItsHalfHourDaylightSavingTimeAfter2100() throws {
        let lordHowe = try zoneNamed("Australia/Lord_Howe")
        #expect(lordHowe.offset(at: CivilDate(year: 2101, month: 1, day: 15).days * 86_400) == 39_600)
        #expect(lordHowe.offset(at: CivilDate(year: 2101, month: 7, day: 15).days * 86_400) == 37_800)
        // 2101-10-02 02:00 +10:30 → 02:30 +11:00; 2101-04-03 02:00 +11:00 → 01:30 +10:30.
        #expect(lordHowe.offset(at: 4_157_623_799) == 37_800 && lordHowe.offset(at: 4_157_623_800) == 39_600)
        #expect(lordHowe.offset(at: 4_141_897_199) == 39_600 && lordHowe.offset(at: 4_141_897_200) == 37_800)
        #expect(lordHowe.occurrence(of: wallClock(2, 15), on: civilDay(2101, 10, 2)) == 4_157_623_800)
        // The same rule in 9999: first Sunday of October (the 3rd), 02:00 +10:30.
        let october = CivilDate(year: 9999, month: 10, day: 3).days * 86_400 + 2 * 3600 - 37_800
        #expect(lordHowe.offset(at: october - 1) == 37_800 && lordHowe.offset(at: october) == 39_600)
    }

    @Test func theRuleRepeatsEveryFourHundredYears() throws {
        for name in ["America/New_York", "Australia/Lord_Howe", "Europe/Dublin", "America/Nuuk", "Pacific/Chatham"] {
            let table = try zoneNamed(name).table
            #expect(table.cycleEnd != .max, "\(name)")
            let year2500 = CivilDate(year: 2500, month: 1, day: 1).days * 86_400
            let first = table.transitions(in: year2500 ..< year2500 + ZoneTable.cyclePeriod)
            let later = table.transitions(in: year2500 + 17 * ZoneTable.cyclePeriod ..< year2500 + 18 * ZoneTable.cyclePeriod)
            #expect(later == first.map { $0 + 17 * ZoneTable.cyclePeriod }, "\(name)")
            #expect(!first.isEmpty)
            for t in first.prefix(40) {
                #expect(table.offset(at: t) == table.offset(at: t + 17 * ZoneTable.cyclePeriod))
                #expect(table.offset(at: t - 1) == table.offset(at: t - 1 + 17 * ZoneTable.cyclePeriod))
            }
        }
        // Without daylight saving time nothing repeats: the last offset holds.
        let tokyo = try zoneNamed("Asia/Tokyo").table
        #expect(tokyo.cycleEnd == .max)
        #expect(tokyo.offset(at: RFC3339.instants.upperBound) == 32_400)
    }
}

@Suite("POSIX TZ rules (TZif footers)")
struct PosixTZRuleTests {
    func changes(_ text: String, _ year: Int) throws -> [Int] {
        try #require(PosixTZRule(text)).changes(inYear: year).map(\.instant)
    }

    @Test func monthWeekDayRules() throws {
        let newYork = try #require(PosixTZRule("EST5EDT,M3.2.0,M11.1.0"))
        #expect(newYork.standardOffset == -18_000 && newYork.daylight?.offset == -14_400)
        #expect(try changes("EST5EDT,M3.2.0,M11.1.0", 2026) == [1_772_953_200, 1_793_512_800])
        // Quoted names, half-hour offsets, the southern hemisphere (starts after it ends).
        #expect(try changes("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 2101) == [4_157_623_800, 4_141_897_200])
        // Negative daylight saving time (Irish Standard Time in summer, GMT in winter).
        let dublin = try #require(PosixTZRule("IST-1GMT0,M10.5.0,M3.5.0/1"))
        #expect(dublin.standardOffset == 3600 && dublin.daylight?.offset == 0)
        #expect(try changes("IST-1GMT0,M10.5.0,M3.5.0/1", 2026) == [1_792_890_000, 1_774_746_000])
    }

    @Test func julianAndZeroBasedDays() throws {
        // `Jn` never counts February 29: J60 is March 1 in every year.
        #expect(try changes("XST3XDT,J60/0,J300/0", 2023) == [1_677_639_600, 1_698_372_000])
        #expect(try changes("XST3XDT,J60/0,J300/0", 2024) == [1_709_262_000, 1_729_994_400])
        // `n` counts it: day 59 is March 1 in 2023 and February 29 in 2024 (glibc agrees).
        #expect(try changes("XST3XDT,59/0,299/0", 2023) == [1_677_639_600, 1_698_372_000])
        #expect(try changes("XST3XDT,59/0,299/0", 2024) == [1_709_175_600, 1_729_908_000])
    }

    @Test func extendedTransitionTimes() throws {
        // America/Nuuk: −1:00 is 23:00 the Saturday before the last Sunday of March.
        #expect(try changes("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 2026) == [1_774_746_000, 1_792_890_000])
        // 50 hours after the start of the fourth Thursday: 02:00 on the Saturday.
        #expect(try changes("EET-2EEST,M3.4.4/50,M10.4.4/50", 2026) == [1_774_656_000, 1_792_796_400])
        // −30 hours and 167 hours (the RFC 8536 limits are ±167).
        #expect(try changes("XST0XDT-1,M3.1.0/-30,M10.5.6/167", 2026) == [1_772_215_200, 1_794_002_400])
        // 24:00 (America/Godthab's old rule, Asuncion's last): midnight after the Saturday.
        #expect(try changes("<-04>4<-03>,M9.1.6/24,M4.1.6/24", 2026) == [1_788_667_200, 1_775_358_000])
    }

    @Test(arguments: [
        "", "EST", "ES5", "EST5EDT", "EST5EDT,M3.2.0", "EST25", "EST5:60", "<AB>5", "<EST5", "EST5EDT,M13.1.0,M11.1.0",
        "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,366,1",
        "EST5EDT,M3.2.0/168,M11.1.0", "EST5EDT,M3.2.0,M11.1.0x", "EST5 ", "EST5EDT4,M3.2.0/2:60,M11.1.0",
    ])
    func rejectsMalformedRules(_ text: String) {
        #expect(PosixTZRule(text) == nil)
    }

    @Test func fixedOffsets() throws {
        #expect(try #require(PosixTZRule("<+0545>-5:45")).standardOffset == 20_700)
        #expect(try #require(PosixTZRule("<-00>0")).standardOffset == 0)
        #expect(try #require(PosixTZRule("HST10")).daylight == nil)
    }
}

@Suite("TZif files")
struct TZifTests {
    static let newYorkFile = "/usr/share/zoneinfo/America/New_York"

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A version 2 TZif file with an empty version 1 block: one type per offset, no
    /// abbreviations beyond one byte, and the footer given.
    static func file(transitions: [Int], types: [Int], offsets: [Int32], footer: String, version: UInt8 = 0x32) -> [UInt8] {
        func header(times: Int, typeCount: Int) -> [UInt8] {
            var h: [UInt8] = Array("TZif".utf8) + [version] + Array(repeating: 0, count: 15)
            for count in [0, 0, 0, times, typeCount, 1] { h += withUnsafeBytes(of: UInt32(count).bigEndian, Array.init) }
            return h
        }
        var out = header(times: 0, typeCount: 1) + [0, 0, 0, 0, 0, 0] + [0]      // v1: one type, one char
        out += header(times: transitions.count, typeCount: offsets.count)
        for t in transitions { out += withUnsafeBytes(of: Int64(t).bigEndian, Array.init) }
        out += types.map(UInt8.init)
        for o in offsets { out += withUnsafeBytes(of: o.bigEndian, Array.init) + [0, 0] }
        out += [0] + Array("\n\(footer)\n".utf8)
        return out
    }

    @Test func readsTheSystemFile() throws {
        let tzif = try #require(TZif(bytes: try Self.bytes(Self.newYorkFile)))
        #expect(tzif.footer == "EST5EDT,M3.2.0,M11.1.0")
        #expect(tzif.offsets.first == -17_762)
        #expect(tzif.transitions.first == -2_717_650_800)
    }

    @Test func refusesEveryTruncationAndBadHeaders() throws {
        let good = try Self.bytes(Self.newYorkFile)
        for length in 0 ..< good.count where TZif(bytes: Array(good.prefix(length))) != nil {
            Issue.record("a file cut to \(length) bytes was read")
        }
        var version1 = good
        version1[4] = 0
        #expect(TZif(bytes: version1) == nil)
        var badMagic = good
        badMagic[0] = 0x58
        #expect(TZif(bytes: badMagic) == nil)
        #expect(TZif(bytes: good + [0x0A]) == nil)                      // trailing bytes after the footer
        #expect(TZif(bytes: Array(repeating: 0, count: 2 << 20)) == nil)
    }

    @Test func refusesLeapSecondsOutOfRangeOffsetsAndUnorderedTransitions() throws {
        if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/right/America/New_York") {
            #expect(TZif(bytes: try Self.bytes("/usr/share/zoneinfo/right/America/New_York")) == nil)
        }
        #expect(TZif(bytes: Self.file(transitions: [0], types: [0], offsets: [93_600], footer: "")) == nil)
        #expect(TZif(bytes: Self.file(transitions: [10, 5], types: [0, 0], offsets: [0], footer: "")) == nil)
        #expect(TZif(bytes: Self.file(transitions: [10], types: [1], offsets: [0], footer: "")) == nil)
        #expect(TZif(bytes: Self.file(transitions: [Int.max], types: [0], offsets: [0], footer: "")) == nil)
        #expect(TZif(bytes: Self.file(transitions: [-(1 << 59)], types: [0], offsets: [0], footer: "UTC0")) != nil)
        #expect(TZif(bytes: Self.file(transitions: [], types: [], offsets: [0], footer: "UTC0")) != nil)
    }

    @Test func tablesFromSyntheticFiles() throws {
        // A fixed footer must agree with the last offset.
        let fixed = try #require(TZif(bytes: Self.file(transitions: [0], types: [1], offsets: [3600, 7200], footer: "<+02>-2")))
        #expect(ZoneTable.build(identifier: "Test/Fixed", tzif: fixed)?.offset(at: 4_000_000_000) == 7200)
        let contradicting = try #require(TZif(bytes: Self.file(transitions: [0], types: [1], offsets: [3600, 7200], footer: "<+01>-1")))
        #expect(ZoneTable.build(identifier: "Test/Bad", tzif: contradicting) == nil)
        let unreadable = try #require(TZif(bytes: Self.file(transitions: [], types: [], offsets: [0], footer: "nonsense")))
        #expect(ZoneTable.build(identifier: "Test/Bad", tzif: unreadable) == nil)
        // An empty footer: the last offset holds.
        let empty = try #require(TZif(bytes: Self.file(transitions: [0], types: [1], offsets: [3600, 7200], footer: "")))
        #expect(ZoneTable.build(identifier: "Test/Empty", tzif: empty)?.offset(at: 1 << 40) == 7200)
        // RFC 8536 §3.3.1: starting January 1 00:00 and ending December 31 24:00 plus the
        // daylight saving (here 25:00) is daylight saving time all year: no transitions.
        let allYear = try #require(TZif(bytes: Self.file(transitions: [], types: [], offsets: [-10_800], footer: "XST3XDT,0/0,J365/25")))
        let table = try #require(ZoneTable.build(identifier: "Test/AllYear", tzif: allYear))
        #expect(table.transitions(in: 0 ..< 4_000_000_000).isEmpty)
        #expect(table.offset(at: 1_767_225_600) == -7200 && table.offset(at: RFC3339.instants.upperBound) == -7200)
        // No transitions and a daylight-saving rule: the rule governs from year 1.
        let ruled = try #require(TZif(bytes: Self.file(transitions: [], types: [], offsets: [-18_000], footer: "EST5EDT,M3.2.0,M11.1.0")))
        let ruledTable = try #require(ZoneTable.build(identifier: "Test/Ruled", tzif: ruled))
        #expect(ruledTable.transitions(in: 1_767_225_600 ..< 1_798_761_600) == [1_772_953_200, 1_793_512_800])
        #expect(ruledTable.offset(at: -2_193_307_200) == -14_400)           // 1900-07-01, EDT by the rule
    }
}

@Suite("Zone names")
struct ZoneNameTests {
    @Test(arguments: [
        "Factory", "localtime", "posixrules", "posix/America/New_York", "right/America/New_York", "posix", "right",
        "../zoneinfo/UTC", "/usr/share/zoneinfo/UTC", "America//New_York", "America/New_York/", "America/../Europe/London",
        "./UTC", "-UTC", "PST", "IST", "SystemV/AST4", "US/Pacific-New", "zone.tab", "tzdata.zi", "leapseconds",
        "America", "america/new_york_", "UTC\u{0}", "Europe/Lon don", String(repeating: "A", count: 129),
    ])
    func namesThatAreNotZonesAreRejected(_ name: String) {
        #expect(Zone(identifier: name) == nil)
    }

    @Test(arguments: ["EET", "WET", "CET", "MET", "US/Eastern", "Etc/GMT-14", "GMT-0", "Etc/UTC",
                      "America/Argentina/ComodRivadavia", "America/Coyhaique", "America/Port-au-Prince"])
    func tzDatabaseNamesAreAccepted(_ name: String) throws {
        #expect(try zoneNamed(name).identifier == name)
    }

    /// Every name the database lists (`tzdata.zi`: its zones and links) is accepted except
    /// `Factory`: 597 of 598 with Debian's tzdata 2025b.
    @Test func everyListedNameButFactoryIsAccepted() throws {
        let path = ZoneInfoDirectory.path + "/tzdata.zi"
        guard FileManager.default.fileExists(atPath: path) else { return }
        var names: [String] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.first == "Z", parts.count > 1 { names.append(String(parts[1])) }
            if parts.first == "L", parts.count > 2 { names.append(String(parts[2])) }
        }
        let rejected = names.filter { Zone(identifier: $0) == nil }
        #expect(rejected == ["Factory"])
        #expect(names.count - rejected.count >= 590)
    }
}
