import HeraldContract
import HeraldEngine
import Testing

/// A type's `computed:` values (docs/templates.md § Computed values) on
/// `Tests/Fixtures/engine/computed`: derived from the request, shown by every template.
@Suite struct ComputedValueTests {
    typealias S = DecideSupport

    static func decide(_ type: String = "score-changed", params: JSON, state: JSON = ["streak": 2]) throws -> Decision {
        let request = S.request(type, user: ["id": "u1"], permission: "granted", state: state, params: params)
        return try S.engine("computed").decide(request, now: request.now).get()
    }

    @Test(arguments: [(12, "Jumped by 12.", "large"), (10, "Jumped by 10.", "large"), (9, "Up by 9.", "up"),
                      (-4, "Down by 4.", "down"), (0, "Down by 0.", "down")])
    func copyLinkKeyAndThreadReadTheComputedValues(delta: Int, body: String, direction: String) throws {
        let decision = try Self.decide(params: ["delta": .int(delta), "profileId": "p-1"])
        #expect(decision.notification?.body == body)
        #expect(decision.notification?.link == "demo://score?view=\(direction)")
        #expect(decision.key == "score-changed:\(direction):\(abs(delta))")
        #expect(decision.notification?.threadId == "score.\(direction)")
        #expect(decision.notification?.presentation?.payload.first?.value == "\(abs(delta))")
    }

    @Test func aComputedValueReadsState() throws {
        let other = try Self.decide(params: ["delta": 3, "profileId": "p-1"], state: ["streak": 9, "profiles": ["activeId": "p-2"]])
        #expect(other.notification?.title == "Other profile: Score")
        #expect(other.notification?.body == "Up by 3. Streak!")
        let same = try Self.decide(params: ["delta": 3, "profileId": "p-2"], state: ["streak": 9, "profiles": ["activeId": "p-2"]])
        #expect(same.notification?.title == "Score")
        let unknown = try Self.decide(params: ["delta": 3, "profileId": "p-2"])
        #expect(unknown.notification?.title == "Score")
    }

    @Test func aStateFieldAComputedValueNeedsIsMissingData() throws {
        let decision = try Self.decide(params: ["delta": 3, "profileId": "p-1"], state: [:])
        #expect(decision.reason == "missing_data")
    }

    @Test func aRequestCannotPassAComputedValue() throws {
        let request = S.request("score-changed", user: ["id": "u1"], permission: "granted", state: ["streak": 1],
                                params: ["delta": 3, "profileId": "p-1", "direction": "large"])
        guard case .failure(let errors) = S.engine("computed").decide(request, now: request.now) else {
            Issue.record("a computed value passed as a param must be a request error")
            return
        }
        #expect(errors.errors.map(\.path) == ["params.direction"])
    }

    @Test func aTypeWithoutComputedValuesRendersItsParams() throws {
        let decision = try Self.decide("plain", params: ["delta": 3, "direction": "up"])
        #expect(decision.notification?.body == "up 3")
    }
}
