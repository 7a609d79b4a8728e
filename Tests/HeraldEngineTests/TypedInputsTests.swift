import HeraldContract
import HeraldEngine
import HeraldPolicy
import Testing

/// The engine's typed inputs, built from Swift values (`Engine.userContext`, `Engine.trigger`),
/// decide exactly as the same request read from JSON, and bad values are refused with a path.
@Suite struct TypedInputsTests {
    typealias S = DecideSupport

    @Test func typedInputsDecideAsTheRequestDoes() throws {
        let engine = S.engine()
        let now = S.instant(S.t0)
        for type in ["morning", "otp", "tip"] {
            let request = S.request(type)
            let user = try engine.userContext(
                id: "u1", fields: ["user.account": .bool(true), "user.premium": .bool(false),
                                   "state.streak": .int(3), "state.unread": .int(2)])
            let trigger = try engine.trigger(type, at: now)
            let typed = try engine.decide(trigger, for: user, now: now).get()
            let fromJSON = try engine.decide(request, now: now).get()
            #expect(typed.json() == fromJSON.json(), "\(type)")
        }
    }

    @Test func badSwiftValuesAreRequestErrors() throws {
        let engine = S.engine()
        #expect(throws: RequestErrors.self) { try engine.userContext(id: "u", fields: ["state.streek": .int(1)]) }
        #expect(throws: RequestErrors.self) { try engine.userContext(id: "u", fields: ["state.streak": .string("three")]) }
        #expect(throws: RequestErrors.self) { try engine.userContext(id: "u", prefs: PreferencesInput(timezone: "Not/AZone")) }
        #expect(throws: RequestErrors.self) { try engine.trigger("no-such-type", at: 0) }
        #expect(throws: RequestErrors.self) { try engine.trigger("morning", at: 0, params: ["nope": .int(1)]) }
        do {
            _ = try engine.userContext(id: "u", fields: ["state.streek": .int(1)])
        } catch {
            #expect(error.errors.first?.message.contains("did you mean `state.streak`?") == true)
        }
    }

    /// A context or trigger is valid only with the engine that made it.
    @Test func inputsOfAnotherEngineAreRefused() throws {
        let engine = S.engine()
        let other = Engine(bundle: engine.bundle)
        let now = S.instant(S.t0)
        let user = try engine.userContext(id: "u1")
        let trigger = try engine.trigger("otp", at: now)
        guard case .failure(let errors) = other.decide(trigger, for: user, now: now) else {
            Issue.record("a foreign user context must be refused")
            return
        }
        #expect(errors.paths == ["user"])
    }

    /// `plan` takes one user context for every trigger.
    @Test func aPlanSharesOneUserContext() throws {
        let engine = S.engine()
        let now = S.instant(S.t0)
        let user = try engine.userContext(id: "u1", fields: ["user.account": .bool(true), "state.streak": .int(3), "state.unread": .int(2)])
        let triggers = try ["tip", "tip2"].map { try engine.trigger($0, at: now) }
        let plan = try engine.plan(triggers, for: user, now: now, horizon: 86_400).get()
        #expect(plan.decisions.count == 2)
        #expect(plan.batches.count == 1)
    }
}
