import HeraldContract
import HeraldEngine
import Testing

/// When a rule is judged (`timing.judgedAt`, `delivery.*`) and what a trigger already past does
/// (`timing.past`, `timing.sameDay`): docs/time.md. America/New_York, reminder time 19:00,
/// quiet hours 22:00–07:00 (Tests/Fixtures/engine/judged).
@Suite struct TimeJudgedTests {
    typealias S = DecideSupport
    static let engine = S.engine("judged")

    func decide(_ type: String, at: String, now: String? = nil, state: JSON = [:], params: JSON = [:],
                history: [JSON] = []) -> Decision {
        S.decide(S.request(type, at: at, now: now, user: ["id": "u1"], state: state, params: params, history: history),
                 engine: Self.engine)
    }

    @Test func sinceIsJudgedAtTheTriggerByDefault() {
        // Opened 44 h before 06:00, 57 h before the 19:00 delivery.
        let state: JSON = ["lastOpenedAt": "2026-03-08T10:00:00-04:00"]
        let atTrigger = decide("overdue-at-trigger", at: "2026-03-10T06:00:00-04:00", state: state)
        #expect(atTrigger.reason == "opened_recently")
        let atDelivery = decide("overdue-at-delivery", at: "2026-03-10T06:00:00-04:00", state: state)
        #expect(atDelivery.action == .schedule)
        #expect(atDelivery.deliverAt == S.instant("2026-03-10T19:00:00-04:00"))
    }

    @Test func sinceAtDeliveryStillSuppressesInside48Hours() {
        let d = decide("overdue-at-delivery", at: "2026-03-10T06:00:00-04:00", state: ["lastOpenedAt": "2026-03-08T20:00:00-04:00"])
        #expect(d.reason == "opened_recently")
    }

    @Test func localWeekdayIsTheDeliveryDay() {
        // Friday 23:00 → reminder time is Saturday 19:00: judged on Saturday.
        let d = decide("overdue-at-delivery", at: "2026-03-13T23:00:00-04:00")
        #expect(d.reason == "weekend")
        // The default type would see Friday.
        let friday = decide("overdue-at-trigger", at: "2026-03-13T23:00:00-04:00")
        #expect(friday.action == .schedule)
    }

    @Test func sentWindowIsTheDeliveryDay() {
        // One went out on Tuesday at 08:00; planned on Monday for Tuesday 19:00, Tuesday counts.
        let history = [S.entry("showup", at: "2026-03-10T08:00:00-04:00")]
        let d = decide("overdue-at-delivery", at: "2026-03-09T20:00:00-04:00", history: history)
        #expect(d.reason == "sent_that_day")
        #expect(d.deliverAt == nil)
    }

    @Test func deliveryDateInATypeJudgedAtTheTrigger() {
        // Planned at 21:00 on the 10th for 08:00 on the 11th: the 10th's show-up does not count.
        let planned = decide("showup", at: "2026-03-10T21:00:00-04:00", state: ["lastDoneDate": "2026-03-10"])
        #expect(planned.action == .schedule)
        #expect(planned.deliverAt == S.instant("2026-03-11T08:00:00-04:00"))
        let sameDay = decide("showup", at: "2026-03-11T07:00:00-04:00", state: ["lastDoneDate": "2026-03-11"])
        #expect(sameDay.reason == "done_that_day")
    }

    @Test func traceNamesTheInstantJudgedAt() {
        let d = decide("overdue-at-delivery", at: "2026-03-10T06:00:00-04:00")
        let notes = d.trace.filter { $0.stage == .suppression || $0.stage == .eligibility }.compactMap(\.detail)
        #expect(notes.count == 2)
        #expect(notes.allSatisfy { $0.hasSuffix("judged at delivery 2026-03-10 19:00") })
        let plain = decide("overdue-at-trigger", at: "2026-03-10T06:00:00-04:00")
        #expect(!plain.trace.contains { $0.detail?.contains("judged") ?? false })
        let showup = decide("showup", at: "2026-03-10T21:00:00-04:00")
        #expect(showup.trace.contains { $0.detail?.hasSuffix("judged at the trigger; delivery 2026-03-11 08:00") ?? false })
    }

    @Test func pastSkipIsMissedNotExpired() {
        let params: JSON = ["startsAt": "2026-03-10T17:30:00-04:00"]
        let late = decide("session", at: "2026-03-10T09:00:00-04:00", now: "2026-03-10T17:31:00-04:00", params: params)
        #expect(late.reason == "missed")
        #expect(late.rule?.id == "session.timing.past")
        // Exactly at the instant: not past.
        let onTime = decide("session", at: "2026-03-10T09:00:00-04:00", now: "2026-03-10T17:30:00-04:00", params: params)
        #expect(onTime.action == .schedule && onTime.deliverAt == S.instant("2026-03-10T17:30:00-04:00"))
        // A deferral is bounded by `expires`, not by `past`: 23:00 → 07:00 is 8 h, within 10 h.
        let night = decide("session", at: "2026-03-10T09:00:00-04:00", params: ["startsAt": "2026-03-10T23:00:00-04:00"])
        #expect(night.reason == "quiet_hours" && night.deliverAt == S.instant("2026-03-11T07:00:00-04:00"))
    }

    @Test func missedSkipsDedupeSoTheKeyOfTodayIsNotTaken() {
        // The history already holds today's key: a missed trigger still says `missed`, not `duplicate`.
        let history = [S.entry("session", key: "session:u1:2026-03-10", at: "2026-03-10T08:00:00-04:00")]
        let d = decide("session", at: "2026-03-09T09:00:00-04:00", now: "2026-03-10T09:00:00-04:00",
                       params: ["startsAt": "2026-03-09T17:30:00-04:00"], history: history)
        #expect(d.reason == "missed")
        #expect(d.trace.first { $0.stage == .dedupe }?.outcome == .skip)
    }

    @Test func sameDayDeliversAtOnceOnTheDay() {
        let late = decide("birthday", at: "2026-03-10T13:00:00-04:00")
        #expect(late.action == .schedule && late.deliverAt == S.instant("2026-03-10T13:00:00-04:00"))
        let early = decide("birthday", at: "2026-03-10T06:00:00-04:00")
        #expect(early.deliverAt == S.instant("2026-03-10T09:00:00-04:00"))
        let strict = decide("birthday-strict", at: "2026-03-10T13:00:00-04:00")
        #expect(strict.reason == "missed")
    }
}
