import HeraldContract
import HeraldEngine
import Testing

/// One case per built-in reason code and per schedule reason, on Tests/Fixtures/engine/basic.
@Suite struct DecideReasonTests {
    typealias S = DecideSupport

    func decide(_ request: DecisionRequest) -> Decision { S.decide(request) }

    @Test func missingParam() {
        let d = decide(S.request("daily", params: [:]))
        #expect(d.action == .suppress && d.reason == "missing_data")
        #expect(d.trace.first?.outcome == .verdict && d.trace.first?.detail?.contains("params.count") == true)
    }

    @Test func missingStateField() {
        let d = decide(S.request("daily", state: ["unread": 1], params: ["count": 2]))
        #expect(d.reason == "missing_data")
        #expect(d.trace.first?.detail == "`state.streak` is absent")
    }

    @Test func ineligible() {
        let d = decide(S.request("daily", user: ["id": "u1", "account": false, "premium": false], params: ["count": 2]))
        #expect(d.reason == "ineligible")
        #expect(d.rule?.id == "daily.eligible")
        #expect(d.rule?.source.hasSuffix("engine/basic/bundle.yaml:33:5") == true)
    }

    @Test func pausedAll() {
        let d = decide(S.request("daily", prefs: ["pausedAll": true], params: ["count": 2]))
        #expect(d.reason == "paused_all")
        // A locked type ignores the pause.
        let otp = decide(S.request("otp", prefs: ["pausedAll": true]))
        #expect(otp.action == .schedule)
    }

    @Test func channelOff() {
        let d = decide(S.request("sms-offer", prefs: ["channels": ["sms": false]]))
        #expect(d.reason == "channel_off")
        // A locked type (a one-time code) ignores the channel's master toggle too.
        let code = decide(S.request("sms-code", prefs: ["channels": ["sms": false]]))
        #expect(code.action == .schedule && code.channel == "sms")
    }

    @Test func categoryOff() {
        #expect(decide(S.request("morning", prefs: ["categories": ["news": false]])).reason == "category_off")
        // `requires` gates the category.
        #expect(decide(S.request("offer")).reason == "category_off")
        let premium = decide(S.request("offer", user: ["id": "u1", "account": true, "premium": true]))
        #expect(premium.action == .schedule)
        // A locked category cannot be turned off.
        #expect(decide(S.request("otp", prefs: ["categories": ["security": false]])).action == .schedule)
    }

    @Test func typeOff() {
        #expect(decide(S.request("nudge")).reason == "type_off")
        #expect(decide(S.request("nudge", prefs: ["types": ["nudge": true]])).action == .schedule)
    }

    @Test func systemDenied() {
        let d = decide(S.request("morning", permission: "denied"))
        #expect(d.reason == "system_denied" && d.action == .suppress)
    }

    @Test func deniedWithFallback() {
        let d = decide(S.request("daily", permission: "denied", params: ["count": 2]))
        #expect(d.action == .schedule)
        #expect(d.fallback == "in_app" && d.channel == "in_app")
    }

    @Test func catalogReason() {
        let d = decide(S.request("daily", state: ["streak": 0, "unread": 0], params: ["count": 2]))
        #expect(d.reason == "no_streak")
        #expect(d.rule?.id == "no-streak")
    }

    @Test func muted() {
        let d = decide(S.request("news-item", prefs: ["muted": ["a"]], params: ["id": "a"]))
        #expect(d.reason == "muted" && d.rule?.id == "muted-item")
    }

    @Test func duplicateIdempotencyKey() {
        let d = decide(S.request("daily", params: ["count": 2],
                                 history: [S.entry("daily", key: "daily:u1:2026-03-10", at: "2026-03-10T19:00:00Z", status: "scheduled")]))
        #expect(d.reason == "duplicate")
        // A cancelled one may be sent again.
        let again = decide(S.request("daily", params: ["count": 2],
                                     history: [S.entry("daily", key: "daily:u1:2026-03-10", at: "2026-03-10T19:00:00Z", status: "cancelled")]))
        #expect(again.action == .schedule)
    }

    @Test func duplicateWithinDedupeWindow() {
        let recent = decide(S.request("news-item", params: ["id": "a"],
                                      history: [S.entry("news-item", key: "news:a", at: "2026-03-10T11:30:00Z")]))
        #expect(recent.reason == "duplicate" && recent.rule?.id == "news-item.dedupe")
        let old = decide(S.request("news-item", params: ["id": "a"],
                                   history: [S.entry("news-item", key: "news:a", at: "2026-03-10T10:00:00Z")]))
        #expect(old.action == .schedule && old.key == "news:a")
    }

    @Test func expired() {
        // 23:00 falls in quiet hours; deferring to 07:00 passes the 1h expiry.
        let d = decide(S.request("session", params: ["at": "2026-03-10T23:00:00Z"]))
        #expect(d.reason == "expired" && d.rule?.id == "session.timing.expires")
        let ok = decide(S.request("session", params: ["at": "2026-03-10T20:00:00Z"]))
        #expect(ok.action == .schedule && ok.deliverAt == S.instant("2026-03-10T20:00:00Z"))
    }

    @Test func rateLimitedByTypeCap() {
        let d = decide(S.request("daily", params: ["count": 2],
                                 history: [S.entry("daily", key: "x", at: "2026-03-10T08:00:00Z")]))
        #expect(d.reason == "rate_limited" && d.cap == "daily-once" && d.rule?.id == "daily-once")
    }

    @Test func rateLimitedByGlobalCap() {
        let history = (0..<10).map { S.entry("morning", at: "2026-03-10T0\($0):30:00Z") }
        let d = decide(S.request("otp", history: history))
        #expect(d.reason == "rate_limited" && d.cap == "global-hard")
    }

    @Test func cooldown() {
        let d = decide(S.request("cooled", history: [S.entry("cooled", at: "2026-03-10T11:30:00Z")]))
        #expect(d.reason == "cooldown" && d.cap == "cool")
        #expect(decide(S.request("cooled", history: [S.entry("cooled", at: "2026-03-10T10:30:00Z")])).action == .schedule)
    }

    @Test func quietHoursSuppress() {
        let d = decide(S.request("quiet-strict", at: "2026-03-10T23:00:00Z"))
        #expect(d.reason == "quiet_hours" && d.action == .suppress)
    }

    @Test func batchedBySoftCap() {
        let history = (0..<5).map { S.entry("tip", at: "2026-03-10T0\($0 + 1):00:00Z") }
        let d = decide(S.request("tip2", history: history))
        #expect(d.action == .batch && d.reason == "batched" && d.cap == "soft")
        #expect(d.batch?.group == "tips")
        #expect(d.batch?.key == "tips:u1:2026-03-10T12:00:00Z")
        #expect(d.batch?.flushAt == S.instant("2026-03-10T12:15:00Z"))
    }

    @Test func batchedWithAnotherMember() {
        let d = decide(S.request("tip2", history: [S.entry("tip", at: "2026-03-10T11:55:00Z", status: "scheduled")]))
        #expect(d.action == .batch && d.rule?.id == "batching.tips")
        #expect(d.batch?.key == "tips:u1:2026-03-10T11:55:00Z")
        #expect(d.deliverAt == S.instant("2026-03-10T12:10:00Z"))
        // Alone, a member is scheduled.
        #expect(decide(S.request("tip2")).action == .schedule)
    }

    @Test func batchedIntoDigest() {
        let d = decide(S.request("digest-me", history: [S.entry("digest-me", at: "2026-03-10T09:00:00Z")]))
        #expect(d.action == .batch && d.batch?.group == "evening")
        #expect(d.batch?.flushAt == S.instant("2026-03-10T18:00:00Z"))
        #expect(d.batch?.key == "evening:u1:2026-03-10")
    }

    // MARK: Schedule reasons

    @Test func onTime() {
        let d = decide(S.request("otp"))
        #expect(d.action == .schedule && d.reason == "on_time" && d.deliverAt == S.instant(S.t0))
    }

    @Test func reminderTime() {
        let d = decide(S.request("daily", params: ["count": 2]))
        #expect(d.reason == "reminder_time" && d.deliverAt == S.instant("2026-03-10T19:00:00Z"))
        #expect(d.rule?.id == "daily.timing")
    }

    @Test func localTime() {
        let d = decide(S.request("morning"))
        #expect(d.reason == "local_time" && d.deliverAt == S.instant("2026-03-11T09:00:00Z"))
    }

    @Test func quietHoursDeferral() {
        let d = decide(S.request("cooled", at: "2026-03-10T23:00:00Z"))
        #expect(d.reason == "quiet_hours" && d.deliverAt == S.instant("2026-03-11T07:00:00Z"))
        #expect(d.rule?.id == "quietHours")
        // A type that bypasses quiet hours is not deferred.
        #expect(decide(S.request("otp", at: "2026-03-10T23:00:00Z")).deliverAt == S.instant("2026-03-10T23:00:00Z"))
    }

    @Test func trainingDay() {
        let d = decide(S.request("weekly", prefs: ["trainingDays": ["fri"]]))
        #expect(d.reason == "training_day" && d.deliverAt == S.instant("2026-03-13T19:00:00Z"))
        #expect(decide(S.request("weekly")).reason == "reminder_time")
    }

    @Test func burstSpacing() {
        let d = decide(S.request("cooled", history: [S.entry("morning", at: S.t0)]))
        #expect(d.reason == "burst_spacing" && d.deliverAt == S.instant("2026-03-10T12:01:00Z"))
        #expect(d.rule?.id == "burst")
    }
}
