import HeraldContract
import HeraldEngine
import HeraldSyntax
import Testing

/// Declared preferences (`prefs:` in the catalog, docs/seeds.md P13), empty quiet hours (U5)
/// and the policy's plan limits (`plan:`, P19).
@Suite struct DeclaredPreferencesTests {
    typealias S = DecideSupport

    static func request(_ type: String = "reminder", at: String = S.t0, prefs: JSON? = nil, id: String = "r1",
                        history: [JSON] = []) -> DecisionRequest {
        S.request(type, at: at, user: ["id": "u1"], prefs: prefs, state: ["unread": 4], params: ["id": .string(id)],
                  subject: id, history: history)
    }

    static func errors(_ request: DecisionRequest) -> [RequestError] {
        guard case .failure(let problems) = S.engine("prefs").decide(request, now: request.now) else { return [] }
        return problems.errors
    }

    @Test func defaultsApplyWhenTheRequestStatesNone() {
        let decision = S.decide(Self.request(), engine: S.engine("prefs"))
        #expect(decision.action == .schedule)
        #expect(decision.notification?.badge == 4)   // `prefs.sound` defaults to true
    }

    @Test func statedValuesAreRead() {
        let quiet = S.decide(Self.request(prefs: ["sound": false, "tone": "bell"]), engine: S.engine("prefs"))
        #expect(quiet.action == .suppress && quiet.reason == "quiet_tone")
        let chime = S.decide(Self.request(prefs: ["sound": false]), engine: S.engine("prefs"))
        #expect(chime.action == .schedule && chime.notification?.badge == 0)
    }

    /// A declared int preference sizes a cap: three this week, and the user's limit is 3.
    @Test func capMaxReadsADeclaredPreference() {
        let history = (1...3).map { S.entry("alert", at: "2026-03-0\($0 + 6)T09:00:00Z") }
        let capped = S.decide(Self.request(prefs: ["maxPerWeek": 3], history: history), engine: S.engine("prefs"))
        #expect(capped.action == .suppress && capped.reason == "rate_limited" && capped.cap == "weekly")
        let open = S.decide(Self.request(history: history), engine: S.engine("prefs"))
        #expect(open.action == .schedule)   // the default 6
    }

    @Test func aValueOutsideAllowedIsARequestError() {
        let problems = Self.errors(Self.request(prefs: ["maxPerWeek": 5, "maxPerDay": 50]))
        #expect(problems.map(\.description) == [
            "prefs.maxPerWeek: 5 is not an allowed value; expected one of 3, 6, 10",
            "prefs.maxPerDay: 50 is not an allowed value; expected one of 2, 3, 4",
        ])
        #expect(problems.map(\.code) == ["H0256", "H0256"])
        #expect(Self.errors(Self.request(prefs: ["maxPerDay": 4])).isEmpty)
    }

    @Test func wrongTypesAndUnknownNamesAreRequestErrors() {
        let problems = Self.errors(Self.request(prefs: ["sound": "yes", "tone": "gong", "sonud": true, "reminder_time": "19:00"]))
        #expect(problems.map(\.description) == [
            "prefs.reminder_time: unknown field `reminder_time`; did you mean `reminderTime`?",
            "prefs.sonud: unknown field `sonud`; did you mean `sound`?",
            "prefs.sound: expected true or false, got \"yes\"",
            "prefs.tone: expected one of chime, bell, got \"gong\"",
        ])
        #expect(problems.allSatisfy { $0.code == nil })
    }

    /// UrbanNest U5: a DND window that starts when it ends is invalid input, not "no quiet hours".
    @Test func emptyQuietHoursAreARequestError() throws {
        let json: JSON = ["type": "reminder", "at": .string(S.t0), "now": .string(S.t0), "user": ["id": "u1"],
                          "prefs": ["quietHours": ["start": "21:00", "end": "21:00"]]]
        do {
            _ = try DecisionRequest(json: json)
            Issue.record("expected a request error")
        } catch {
            #expect(error.errors.map(\.path) == ["prefs.quietHours"])
            #expect(error.errors.map(\.code) == ["H0257"])
        }
    }

    /// `plan: { horizon: 2d, maxPending: 2 }`: a request's longer horizon is cut to 2 days, and
    /// of three deliveries within it the alert (higher priority) and the soonest reminder stay.
    @Test func planLimitsBoundTheDeliveries() throws {
        let engine = S.engine("prefs")
        let candidates = [
            Self.request(at: "2026-03-10T13:00:00Z", id: "r1"),
            Self.request(at: "2026-03-10T14:00:00Z", id: "r2"),
            Self.request("alert", at: "2026-03-11T15:00:00Z", id: "a1"),
            Self.request(at: "2026-03-13T09:00:00Z", id: "r3"),   // past the policy's 2 days
        ]
        let plan = try engine.plan(candidates, now: S.instant(S.t0), horizon: 30 * 86_400).get()
        #expect(plan.decisions.count == 4)
        #expect(plan.deliveries.map { $0.subject } == ["r1", "a1"])
        let unstated = try engine.plan(candidates, now: S.instant(S.t0), horizon: nil).get()
        #expect(unstated.deliveries.map { $0.subject } == ["r1", "a1"])
        let shorter = try engine.plan(candidates, now: S.instant(S.t0), horizon: 3600).get()
        #expect(shorter.deliveries.map { $0.subject } == ["r1"])
    }

    /// Without `plan:` the request's horizon stands and nothing is dropped for a pending limit.
    @Test func withoutPlanLimitsTheRequestDecides() throws {
        let engine = S.engine("plan")
        let a = S.request("alert", at: "2026-03-10T13:00:00Z", user: ["id": "u1"], state: [:], params: ["id": "a1"])
        let b = S.request("alert", at: "2026-03-20T13:00:00Z", user: ["id": "u1"], state: [:], params: ["id": "a2"])
        #expect(try engine.plan([a, b], now: S.instant(S.t0), horizon: 30 * 86_400).get().deliveries.count == 2)
        #expect(try engine.plan([a, b], now: S.instant(S.t0), horizon: nil).get().deliveries.count == 1)
    }
}
