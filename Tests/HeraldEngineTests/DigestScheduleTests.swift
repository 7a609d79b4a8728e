import HeraldContract
import HeraldEngine
import HeraldPolicy
import Testing

/// Digest schedules (P8: `every: week`, `on`, `at: reminder_time`, `members`) across DST gaps
/// and repeats, and `sent(target, since(field))` windows (P16). Expected instants are the ones
/// docs/time.md's occurrence table gives for the same zones and dates.
@Suite struct DigestScheduleTests {
    typealias S = DecideSupport

    static func held(_ type: String, zone: String, at: String, prefs: JSON = [:]) throws -> Decision {
        var members: [JSON.Member] = [.init("timezone", .string(zone))]
        if case .object(let more) = prefs { members += more }
        let request = S.request(type, at: at, user: ["id": "u1"], prefs: .object(members), permission: "granted",
                                state: ["lastSeenDate": "2026-03-01"])
        return S.decide(request, engine: S.engine("digests"))
    }

    @Test("a weekly Sunday 02:30 digest in New York on the spring-forward Sunday is delivered at 03:00 EDT")
    func newYorkGap() throws {
        let d = try Self.held("weekly-gap-ny", zone: "America/New_York", at: "2026-03-05T12:00:00-05:00")
        #expect(d.action == .batch)
        #expect(d.batch?.key == "gap-ny:u1:2026-03-08")
        #expect(d.batch?.flushAt == 1_772_953_200)   // 07:00Z = 03:00 EDT
    }

    @Test("a weekly Sunday 01:30 digest in London on the fall-back Sunday is delivered once, at the first 01:30")
    func londonRepeat() throws {
        let d = try Self.held("weekly-repeat-london", zone: "Europe/London", at: "2026-10-22T12:00:00+01:00")
        #expect(d.batch?.key == "repeat-london:u1:2026-10-25")
        #expect(d.batch?.flushAt == 1_792_888_200)   // 00:30Z = 01:30 BST
        // Held between the two 01:30s: the repeat is not a second slot; the next Sunday is.
        let late = try Self.held("weekly-repeat-london", zone: "Europe/London", at: "2026-10-25T00:45:00Z")
        #expect(late.batch?.key == "repeat-london:u1:2026-11-01")
    }

    @Test("Lord Howe's half-hour changes: 02:15 in the gap is 02:30, 01:45 in the repeat is its first occurrence")
    func lordHowe() throws {
        let gap = try Self.held("weekly-gap-lordhowe", zone: "Australia/Lord_Howe", at: "2026-10-01T12:00:00+10:30")
        #expect(gap.batch?.key == "gap-lordhowe:u1:2026-10-04")
        #expect(gap.batch?.flushAt == 1_791_041_400)
        let repeated = try Self.held("weekly-repeat-lordhowe", zone: "Australia/Lord_Howe", at: "2026-04-02T12:00:00+11:00")
        #expect(repeated.batch?.key == "repeat-lordhowe:u1:2026-04-05")
        #expect(repeated.batch?.flushAt == 1_775_313_900)
    }

    @Test("a weekly digest held on its own weekday after its time waits a week; before it, the same day")
    func sameWeekday() throws {
        let before = try Self.held("weekly-gap-ny", zone: "America/New_York", at: "2026-03-15T01:00:00-04:00")
        #expect(before.batch?.key == "gap-ny:u1:2026-03-15")
        let after = try Self.held("weekly-gap-ny", zone: "America/New_York", at: "2026-03-15T04:00:00-04:00")
        #expect(after.batch?.key == "gap-ny:u1:2026-03-22")
    }

    @Test("at: reminder_time follows the user's time, and the flush leaves quiet hours but keeps the slot's date")
    func reminderTimeAndQuietHours() throws {
        let own = try Self.held("daily-own-time", zone: "Europe/London", at: "2026-03-10T12:00:00Z", prefs: ["reminderTime": "21:15"])
        #expect(own.batch?.key == "own-time:u1:2026-03-10")
        #expect(own.batch?.flushAt == S.instant("2026-03-10T21:15:00Z"))
        let policyDefault = try Self.held("daily-own-time", zone: "Europe/London", at: "2026-03-10T12:00:00Z")
        #expect(policyDefault.batch?.flushAt == S.instant("2026-03-10T19:00:00Z"))
        let quiet = try Self.held("daily-own-time", zone: "Europe/London", at: "2026-03-10T12:00:00Z",
                                  prefs: ["reminderTime": "21:15", "quietHours": ["start": "21:00", "end": "07:30"]])
        #expect(quiet.batch?.key == "own-time:u1:2026-03-10")
        #expect(quiet.batch?.flushAt == S.instant("2026-03-11T07:30:00Z"))
    }

    @Test("a type that is no digest's member is not held")
    func nonMember() throws {
        let d = try Self.held("plain", zone: "Europe/London", at: "2026-03-10T12:00:00Z")
        #expect(d.action == .schedule)
        #expect(d.batch == nil)
    }

    @Test("sent(t, since(field)) counts entries after the instant, planned ones included, and none before it")
    func sentSince() throws {
        let engine = S.engine("digests")
        func decide(lastActive: String, history: [String]) -> Decision {
            let entries = history.map { S.entry("nudge", key: "nudge:\($0)", at: $0, channel: "push") }
            return S.decide(S.request("nudge", at: "2026-03-10T12:00:00Z", user: ["id": "u1"], permission: "granted",
                                      state: ["lastActiveAt": .string(lastActive), "lastSeenDate": "2026-03-01"], history: entries),
                            engine: engine)
        }
        // Two in this lapse (one planned ahead): bounded.
        #expect(decide(lastActive: "2026-01-01T00:00:00Z", history: ["2026-01-10T09:00:00Z", "2026-03-20T09:00:00Z"]).reason == "bounded")
        // One at the very instant the lapse began is not after it.
        #expect(decide(lastActive: "2026-01-10T09:00:00Z", history: ["2026-01-10T09:00:00Z", "2026-02-10T09:00:00Z"]).action == .schedule)
        // Absent: the rule's `has()` is false.
        let absent = S.decide(S.request("nudge", at: "2026-03-10T12:00:00Z", user: ["id": "u1"], permission: "granted",
                                        state: ["lastSeenDate": "2026-03-01"]), engine: engine)
        #expect(absent.action == .schedule)
    }
}
