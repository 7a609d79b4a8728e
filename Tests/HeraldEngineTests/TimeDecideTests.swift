import HeraldContract
import HeraldEngine
import Testing

/// Decisions across real zones and DST changes. Every expected instant was computed with
/// Python's `zoneinfo` (tzdata 2025b).
@Suite struct TimeDecideTests {
    typealias S = DecideSupport

    /// `daily` at the given reminder time in `zone`, without quiet hours.
    func reminder(_ time: String, zone: String, at: String, quiet: JSON = nil, history: [JSON] = []) -> Decision {
        S.decide(S.request("daily", at: at, prefs: ["timezone": .string(zone), "reminderTime": .string(time), "quietHours": quiet],
                           params: ["count": 1], history: history))
    }

    @Test func springForwardGapLandsOnFirstValidMinute() {
        // 02:30 does not exist in New York on 2026-03-08: delivered at 03:00 EDT.
        let d = reminder("02:30", zone: "America/New_York", at: "2026-03-08T05:00:00Z")
        #expect(d.deliverAt == S.instant("2026-03-08T07:00:00Z"))
        #expect(d.json()["localDeliverAt"] == "2026-03-08T03:00:00-04:00")
    }

    @Test func fallBackOverlapDeliveredOnce() {
        // 01:30 happens twice on 2026-11-01: the first (EDT) is the one.
        let first = reminder("01:30", zone: "America/New_York", at: "2026-11-01T04:00:00Z")
        #expect(first.deliverAt == S.instant("2026-11-01T05:30:00Z"))
        #expect(first.key == "daily:u1:2026-11-01")
        // Triggered during the repeated hour: never the second 01:30, the next day's.
        let repeated = reminder("01:30", zone: "America/New_York", at: "2026-11-01T06:15:00Z")
        #expect(repeated.deliverAt == S.instant("2026-11-02T06:30:00Z"))
        // Fed back, the first one makes a second decision for that day a duplicate.
        let history = [S.entry("daily", key: first.key!, at: "2026-11-01T05:30:00Z", status: "scheduled")]
        let again = reminder("01:30", zone: "America/New_York", at: "2026-11-01T05:00:00Z", history: history)
        #expect(again.reason == "duplicate")
    }

    @Test func quietHoursDeferToNextLocalMorning() {
        // Berlin, 23:00 local on 2026-03-10 (UTC+1) → 07:00 on 2026-03-11.
        let d = S.decide(S.request("cooled", at: "2026-03-10T22:00:00Z", prefs: ["timezone": "Europe/Berlin"]))
        #expect(d.reason == "quiet_hours" && d.deliverAt == S.instant("2026-03-11T06:00:00Z"))
    }

    @Test func quietHoursAcrossSpringForward() {
        // 23:00 EST on 2026-03-07 → 07:00 EDT on 2026-03-08 (the night is an hour shorter).
        let d = S.decide(S.request("cooled", at: "2026-03-08T04:00:00Z", prefs: ["timezone": "America/New_York"]))
        #expect(d.deliverAt == S.instant("2026-03-08T11:00:00Z"))
        #expect(d.json()["localDeliverAt"] == "2026-03-08T07:00:00-04:00")
    }

    @Test func quietHoursAcrossFallBack() {
        // 23:00 EDT on 2026-10-31 → 07:00 EST on 2026-11-01 (the night is an hour longer).
        let d = S.decide(S.request("cooled", at: "2026-11-01T03:00:00Z", prefs: ["timezone": "America/New_York"]))
        #expect(d.deliverAt == S.instant("2026-11-01T12:00:00Z"))
    }

    @Test func lordHoweHalfHourGap() {
        // Lord Howe springs forward 30 minutes at 02:00 on 2026-10-04: 02:15 → 02:30 (+11).
        let d = reminder("02:15", zone: "Australia/Lord_Howe", at: "2026-10-03T13:00:00Z")
        #expect(d.deliverAt == S.instant("2026-10-03T15:30:00Z"))
    }

    @Test func lordHoweHalfHourOverlap() {
        // 01:45 repeats on 2026-04-05: the first (+11) is taken.
        let d = reminder("01:45", zone: "Australia/Lord_Howe", at: "2026-04-04T13:00:00Z")
        #expect(d.deliverAt == S.instant("2026-04-04T14:45:00Z"))
    }

    @Test func kathmanduQuarterHourOffset() {
        let d = reminder("19:00", zone: "Asia/Kathmandu", at: "2026-03-10T06:00:00Z")
        #expect(d.deliverAt == S.instant("2026-03-10T13:15:00Z"))
        #expect(d.json()["localDeliverAt"] == "2026-03-10T19:00:00+05:45")
        #expect(d.key == "daily:u1:2026-03-10")
    }

    @Test func apiaSkippedDate() {
        // Samoa skipped 2011-12-30. Triggered at 20:00 on the 29th, the next 19:00 is on the 31st.
        let d = reminder("19:00", zone: "Pacific/Apia", at: "2011-12-30T06:00:00Z")
        #expect(d.deliverAt == S.instant("2011-12-31T05:00:00Z"))
        #expect(d.key == "daily:u1:2011-12-31")
    }

    @Test func zoneChangeKeepsWallClock() {
        let ny = reminder("19:00", zone: "America/New_York", at: "2026-06-10T12:00:00Z")
        let london = reminder("19:00", zone: "Europe/London", at: "2026-06-10T12:00:00Z")
        #expect(ny.json()["localDeliverAt"] == "2026-06-10T19:00:00-04:00")
        #expect(london.json()["localDeliverAt"] == "2026-06-10T19:00:00+01:00")
    }

    @Test func dayCapUsesLocalDay() {
        // 23:30 UTC on 03-09 is 08:30 on 03-10 in Tokyo: the same local day as the new one.
        let history = [S.entry("daily", key: "x", at: "2026-03-09T23:30:00Z")]
        let tokyo = S.decide(S.request("daily", at: "2026-03-10T01:00:00Z", prefs: ["timezone": "Asia/Tokyo", "quietHours": nil],
                                       params: ["count": 1], history: history))
        #expect(tokyo.reason == "rate_limited")
        let utc = S.decide(S.request("daily", at: "2026-03-10T01:00:00Z", params: ["count": 1], history: history))
        #expect(utc.action == .schedule)
    }
}
