import HeraldEngine
import Testing

/// `Engine.decideAll(_:ledger:now:reusing:)` (what the simulator decides with): reusing the
/// previous request's converted prefs, state and user gives the decisions of `decideAll`, byte
/// for byte, whether the next request's inputs are the same values, equal copies or different.
@Suite struct DecideReusingTests {
    typealias S = DecideSupport

    /// Decides `requests` in order with one `RequestReuse`, and each one alone.
    static func compare(_ requests: [DecisionRequest], engine: Engine) {
        var reuse = RequestReuse()
        for (index, request) in requests.enumerated() {
            let reused = engine.decideAll(request, now: request.now, reusing: &reuse)
            let alone = engine.decideAll(request, now: request.now)
            switch (reused, alone) {
            case (.success(let a), .success(let b)):
                #expect(a.map { $0.json().serialized() } == b.map { $0.json().serialized() }, "request \(index)")
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "request \(index)")
            default:
                Issue.record("request \(index): \(reused) against \(alone)")
            }
        }
    }

    @Test func sameDecisionsAsDecidingEachAlone() {
        let base = S.request("daily", params: ["count": 2])
        var sameValues = base
        sameValues.params = ["count": 5]
        var otherState = base
        otherState.state = ["unread": 1]  // no `streak`: missing_data
        var otherPrefs = base
        otherPrefs.prefs = S.request("daily", prefs: ["pausedAll": true]).prefs
        var otherUser = base
        otherUser.user = ["id": "u2", "account": false, "premium": false]
        let badState = S.request("daily", state: ["streak": "three"], params: ["count": 2])
        let requests = [base, sameValues, S.request("daily", params: ["count": 2]), otherState, otherPrefs, otherUser,
                        badState, base, S.request("otp"), otherState, S.request("unknown-type"), base]
        Self.compare(requests, engine: S.engine())
        // Each change decides differently, so a conversion kept too long would show.
        let reasons = [base, otherState, otherPrefs, otherUser].map { S.decide($0).reason }
        #expect(reasons == ["reminder_time", "missing_data", "paused_all", "ineligible"])
    }

    /// A `delivery: all` type: every channel's decision, with the conversions reused across them.
    @Test func everyChannelOfADeliveryAllType() {
        let paid = S.request("payment-failed", user: ["id": "u1"], permission: "granted", state: [:], params: ["id": "p1"])
        var denied = paid
        denied.permission = .denied
        let toggled = S.request("payment-failed", user: ["id": "u1"], prefs: ["channels": ["email": false]], permission: "granted",
                                state: [:], params: ["id": "p2"])
        Self.compare([paid, denied, toggled, paid, S.request("receipt", user: ["id": "u1"], permission: "granted", state: [:])],
                     engine: S.engine("channels"))
    }
}
