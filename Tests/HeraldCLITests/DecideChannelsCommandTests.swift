import HeraldContract
import HeraldEngine
import Testing
@testable import herald

/// `herald decide` on a `delivery: all` type: `{ type, delivery, decisions }`; on any other
/// type the single decision's JSON, unchanged (docs/decisions.md § Several channels).
@Suite struct DecideChannelsCommandTests {
    let policy = TestSupport.path("policies/handz")

    @Test func deliveryAllPrintsOneDecisionPerChannel() throws {
        let loaded = try DecisionInput.load(policy)
        let text = #"{"type": "N-BILLING-PAYMENT-FAILED", "at": "2026-03-10T19:00:00Z", "now": "2026-03-10T19:00:00Z", "user": {"id": "u1", "account": true, "tier": "pro"}, "prefs": {"timezone": "America/New_York"}, "permission": "denied", "state": {"billing": {"issue": true}}, "params": {"eventId": "ev-1"}}"#
        let decisions = try DecisionInput.decideAll(text, engine: loaded.engine)
        let json = DecisionResponse.json(decisions, engine: loaded.engine)
        #expect(json["delivery"] == .string("all"))
        #expect(json["type"] == .string("N-BILLING-PAYMENT-FAILED"))
        guard case .array(let items)? = json["decisions"] else {
            Issue.record("no decisions array")
            return
        }
        #expect(items.map { $0["channel"] } == [.string("push"), .string("in_app")])
        #expect(items.map { $0["reason"] } == [.string("system_denied"), .string("on_time")])
    }

    @Test func deliveryFirstPrintsTheSingleDecisionUnchanged() throws {
        let loaded = try DecisionInput.load(policy)
        let text = try DecisionInput.read(TestSupport.path("docs/examples/due-today.json"))
        let decisions = try DecisionInput.decideAll(text, engine: loaded.engine)
        let single = try DecisionInput.decide(text, engine: loaded.engine)
        #expect(decisions.count == 1)
        #expect(DecisionResponse.json(decisions, engine: loaded.engine).serialized(pretty: true)
                == single.json().serialized(pretty: true))
    }
}
