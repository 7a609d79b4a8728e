import HeraldContract
import HeraldEngine
import Testing

/// `localDate(t)` and `days(a, b)` in real zones (docs/time.md § The local date of an instant) on
/// `Tests/Fixtures/engine/local-dates`. Expected dates were computed with Python's `zoneinfo`.
@Suite struct LocalDateTests {
    typealias S = DecideSupport

    static func body(at: String, from: String? = nil, trigger: String = S.t0, zone: String) throws -> String {
        let request = S.request("local-day", at: trigger, user: ["id": "u1"], prefs: ["timezone": .string(zone)],
                                permission: "granted", state: [:],
                                params: ["at": .string(at), "from": .string(from ?? at)])
        return try #require(try S.engine("local-dates").decide(request, now: request.now).get().notification?.body)
    }

    /// 23:30 UTC on 2026-03-10 is already the 11th east of UTC+00:30, still the 10th west of it.
    @Test(arguments: [
        ("Pacific/Chatham", "2026-03-11"),       // 13:15 +13:45 (daylight saving time)
        ("Asia/Kathmandu", "2026-03-11"),        // 05:15 +05:45
        ("America/New_York", "2026-03-10"),      // 19:30 EDT, two days after the change
        ("UTC", "2026-03-10"),
        ("Pacific/Kiritimati", "2026-03-11"),    // 13:30 +14:00
        ("Pacific/Pago_Pago", "2026-03-10"),     // 12:30 -11:00
    ])
    func theLocalDateOfAnInstantIsReadInTheUsersZone(zone: String, date: String) throws {
        #expect(try Self.body(at: "2026-03-10T23:30:00Z", zone: zone).hasPrefix(date + " "))
    }

    /// The local midnight of a zone with a quarter-hour offset is where the date turns.
    @Test(arguments: [
        ("Pacific/Chatham", "2026-03-10T10:14:59Z", "2026-03-10"), ("Pacific/Chatham", "2026-03-10T10:15:00Z", "2026-03-11"),
        ("Asia/Kathmandu", "2026-03-10T18:14:59Z", "2026-03-10"), ("Asia/Kathmandu", "2026-03-10T18:15:00Z", "2026-03-11"),
    ])
    func theDateTurnsAtLocalMidnight(zone: String, at: String, date: String) throws {
        #expect(try Self.body(at: at, zone: zone).hasPrefix(date + " "))
    }

    /// `days` counts calendar days, not 24-hour spans: a day of 23 or 25 hours is one day.
    @Test(arguments: [
        ("2026-03-08T04:30:00Z", "2026-03-09T03:30:00Z", 1),  // Sat 23:30 EST → Sun 23:30 EDT: 23 hours
        ("2026-03-08T05:30:00Z", "2026-03-09T03:30:00Z", 0),  // Sun 00:30 EST → Sun 23:30 EDT: 22 hours, one date
        ("2026-10-31T04:00:00Z", "2026-11-02T04:59:00Z", 1),  // Sat 00:00 EDT → Sun 23:59 EST: 49 hours
        ("2026-11-01T05:30:00Z", "2026-11-02T04:30:00Z", 0),  // Sun 01:30 EDT → Sun 23:30 EST: 23 hours, one date
        ("2026-03-09T03:30:00Z", "2026-03-08T04:30:00Z", -1), // backwards: negative
    ])
    func daysAcrossADaylightSavingChangeAreWholeCalendarDays(from: String, at: String, days: Int) throws {
        let body = try Self.body(at: at, from: from, zone: "America/New_York")
        #expect(body.split(separator: " ").dropFirst().first == Substring(String(days)))
    }

    /// A stored instant is read in the zone of the decision: after a move from Tokyo to Los
    /// Angeles, the same instant falls on the previous date.
    @Test func aZoneChangeReadsTheStoredInstantInTheNewZone() throws {
        #expect(try Self.body(at: "2026-03-10T23:30:00Z", zone: "Asia/Tokyo").hasPrefix("2026-03-11 "))
        #expect(try Self.body(at: "2026-03-10T23:30:00Z", zone: "America/Los_Angeles").hasPrefix("2026-03-10 "))
    }

    /// `localDate(t) == local.date` is "today" in the user's zone: for Kathmandu, 18:00 and 18:30
    /// UTC are on different local dates.
    @Test func todayIsTheTriggersLocalDate() throws {
        #expect(try Self.body(at: "2026-03-10T18:00:00Z", trigger: "2026-03-10T18:10:00Z", zone: "Asia/Kathmandu").hasSuffix(" today"))
        #expect(try Self.body(at: "2026-03-10T18:00:00Z", trigger: "2026-03-10T18:30:00Z", zone: "Asia/Kathmandu").hasSuffix(" not today"))
    }

    /// Prompt rules evaluate in their own context; it reads the same zone.
    @Test func aPromptRuleReadsTheLocalDateInTheUsersZone() throws {
        func reason(_ logged: String) throws -> String {
            let request = try PromptRequest(json: [
                "now": "2026-03-11T03:00:00Z", "user": ["id": "u1"], "state": ["lastLoggedAt": .string(logged)],
                "prefs": ["timezone": "Asia/Kathmandu"], "permission": "unknown",
            ])
            return try S.engine("local-dates").prompt(request, now: request.now).get().reason
        }
        // 18:20 UTC is 00:05 on the 11th in Kathmandu, the prompt's date (08:45); 18:10 UTC is the 10th.
        #expect(try reason("2026-03-10T18:20:00Z") == "practiced_today")
        #expect(try reason("2026-03-10T18:10:00Z") == "eligible")
    }

    static func nudge(state: JSON, trigger: String, zone: String = "America/New_York") throws -> String {
        let request = S.request("practice-nudge", at: trigger, user: ["id": "u1"], prefs: ["timezone": .string(zone)],
                                permission: "granted", state: state)
        return try S.engine("local-dates").decide(request, now: request.now).get().reason
    }

    @Test func aPracticeLoggedOnTheLocalDateSuppresses() throws {
        // 01:00 UTC on the 11th is 21:00 EDT on the 10th: the same local date as 12:00 UTC on the 10th.
        #expect(try Self.nudge(state: ["lastLoggedAt": "2026-03-11T01:00:00Z"], trigger: "2026-03-10T12:00:00Z") == "practiced_today")
        // 03:59 UTC on the 10th is 23:59 EDT on the 9th: yesterday.
        #expect(try Self.nudge(state: ["lastLoggedAt": "2026-03-10T03:59:00Z"], trigger: "2026-03-10T12:00:00Z") != "practiced_today")
        // Never logged: absent, not today.
        #expect(try Self.nudge(state: [:], trigger: "2026-03-10T12:00:00Z") != "practiced_today")
    }

    @Test func sevenLocalDaysSinceTheStoredDateSuppress() throws {
        // The trigger is 2026-03-10 in New York (08:00 EDT).
        #expect(try Self.nudge(state: ["lastActiveDate": "2026-03-03"], trigger: "2026-03-10T12:00:00Z") == "inactive_week")
        #expect(try Self.nudge(state: ["lastActiveDate": "2026-03-04"], trigger: "2026-03-10T12:00:00Z") != "inactive_week")
        // 02:00 UTC on the 10th is still the 9th in New York: six days.
        #expect(try Self.nudge(state: ["lastActiveDate": "2026-03-03"], trigger: "2026-03-10T02:00:00Z") != "inactive_week")
        #expect(try Self.nudge(state: [:], trigger: "2026-03-10T12:00:00Z") != "inactive_week")
    }
}
