import HeraldContract
import HeraldEngine
import HeraldSyntax
import Testing

/// A `scope: subject` cap whose `max` reads the state by its subject (docs/language.md § `caps`,
/// "A cap sized by its subject"; Handz G9): each subject has its own limit.
@Suite struct SubjectCapLimitTests {
    typealias S = DecideSupport

    static let engine = S.engine("subject-caps")

    static func checkpoint(_ plan: String, cadence: JSON, history: [JSON] = []) -> DecisionRequest {
        S.request("checkpoint", user: ["id": "u1"], state: ["cadence": cadence, "lessonLimit": [:]],
                  params: ["planId": .string(plan)], subject: plan, history: history)
    }

    static func sent(_ plan: String, at: String) -> JSON {
        S.entry("checkpoint", at: at, subject: plan)
    }

    @Test func eachSubjectHasTheLimitItsStateGives() {
        let history = [Self.sent("p1", at: "2026-03-08T09:00:00Z"), Self.sent("p2", at: "2026-03-08T09:00:00Z")]
        let cadence: JSON = ["p1": 1, "p2": 3]
        let p1 = S.decide(Self.checkpoint("p1", cadence: cadence, history: history), engine: Self.engine)
        #expect(p1.action == .suppress && p1.reason == "rate_limited" && p1.cap == "plan-cadence")
        #expect(p1.trace.first { $0.stage == .caps }?.detail?.contains("1 of 1 per week used") == true)
        let p2 = S.decide(Self.checkpoint("p2", cadence: cadence, history: history), engine: Self.engine)
        #expect(p2.action == .schedule)
    }

    /// A subject not in the map takes the `??` default (2): the second of the week goes out,
    /// the third is held.
    @Test func aSubjectNotInTheMapTakesTheDefault() {
        let one = [Self.sent("p9", at: "2026-03-08T09:00:00Z")]
        #expect(S.decide(Self.checkpoint("p9", cadence: ["p1": 1], history: one), engine: Self.engine).action == .schedule)
        let two = one + [Self.sent("p9", at: "2026-03-09T09:00:00Z")]
        let held = S.decide(Self.checkpoint("p9", cadence: ["p1": 1], history: two), engine: Self.engine)
        #expect(held.action == .suppress && held.cap == "plan-cadence")
    }

    /// Another subject's entries do not count against this subject's limit.
    @Test func otherSubjectsDoNotCount() {
        let history = (7...9).map { Self.sent("p2", at: "2026-03-0\($0)T09:00:00Z") }
        #expect(S.decide(Self.checkpoint("p1", cadence: ["p1": 1], history: history), engine: Self.engine).action == .schedule)
    }

    /// A limit of 0 holds every one; a negative one binds like 0.
    @Test func zeroAndNegativeLimitsHoldEveryOne() {
        for limit: JSON in [0, -1] {
            let decision = S.decide(Self.checkpoint("p1", cadence: ["p1": limit]), engine: Self.engine)
            #expect(decision.action == .suppress && decision.reason == "rate_limited" && decision.cap == "plan-cadence")
        }
    }

    /// The map a cap's `max` reads is required of the type's requests: absent, the decision is
    /// `missing_data`, never a guessed limit.
    @Test func anAbsentMapIsMissingData() {
        let request = S.request("checkpoint", user: ["id": "u1"], state: ["lessonLimit": [:]],
                                params: ["planId": "p1"], subject: "p1")
        let decision = S.decide(request, engine: Self.engine)
        #expect(decision.action == .suppress && decision.reason == "missing_data")
    }

    /// A policy subject cap reads the limit of the notification's own subject, across the
    /// types it matches; a type without a subject is not limited by it.
    @Test func aPolicySubjectCapCountsTheSubjectAcrossTypes() {
        let history = [S.entry("lesson", at: "2026-03-10T08:00:00Z", subject: "l1")]
        func lesson(_ limits: JSON) -> Decision {
            S.decide(S.request("lesson", user: ["id": "u1"], state: ["cadence": [:], "lessonLimit": limits],
                               params: ["lessonId": "l1"], subject: "l1", history: history), engine: Self.engine)
        }
        let held = lesson([:])
        #expect(held.action == .suppress && held.cap == "lesson-limit")
        #expect(lesson(["l1": 2]).action == .schedule)
        let note = S.decide(S.request("note", user: ["id": "u1"], state: ["cadence": [:], "lessonLimit": [:]],
                                      params: ["id": "n1"], history: history), engine: Self.engine)
        #expect(note.action == .schedule)
    }
}
