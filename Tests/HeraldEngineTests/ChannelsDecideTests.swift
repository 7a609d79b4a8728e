import HeraldContract
import HeraldEngine
import Testing

/// `delivery: all` (one decision per channel) and `keepChannels` (docs/decisions.md § Several
/// channels), on `Tests/Fixtures/engine/channels`.
@Suite struct ChannelsDecideTests {
    typealias S = DecideSupport

    static func all(_ request: DecisionRequest, engine: Engine = S.engine("channels")) throws -> [Decision] {
        try engine.decideAll(request, now: request.now).get()
    }

    @Test func everyChannelGetsItsOwnDecisionAndKey() throws {
        let decisions = try Self.all(S.request("payment-failed", user: ["id": "u1"], permission: "granted", state: [:], params: ["id": "p1"]))
        #expect(decisions.map(\.channel) == ["push", "email", "in_app"])
        #expect(decisions.allSatisfy { $0.action == .schedule })
        #expect(decisions.map(\.key) == ["payment-failed:p1:2026-03-10:push", "payment-failed:p1:2026-03-10:email",
                                         "payment-failed:p1:2026-03-10:in_app"])
    }

    @Test func permissionAndTogglesAreCheckedPerChannel() throws {
        let decisions = try Self.all(S.request("payment-failed", user: ["id": "u1"], prefs: ["channels": ["email": false]], permission: "denied",
                                               state: [:], params: ["id": "p1"]))
        #expect(decisions.map(\.reason) == ["system_denied", "channel_off", "on_time"])
        #expect(decisions.map(\.channel) == ["push", "email", "in_app"])
        #expect(decisions[2].fallback == nil)
    }

    @Test func perChannelCategoryDefaultsApplyPerChannel() throws {
        let decisions = try Self.all(S.request("digest", user: ["id": "u1"], permission: "granted", state: [:]))
        #expect(decisions.map(\.reason) == ["on_time", "channel_off"])
    }

    /// A suppression before the preferences stage still names each channel.
    @Test func earlySuppressionStillNamesTheChannel() throws {
        let decisions = try Self.all(S.request("payment-failed", user: ["id": "u1"], prefs: ["pausedAll": true], state: [:], params: ["id": "p1"]))
        #expect(decisions.map(\.reason) == ["paused_all", "paused_all", "paused_all"])
        #expect(decisions.map(\.channel) == ["push", "email", "in_app"])
    }

    @Test func keptChannelSurvivesTheCategoryToggle() throws {
        let off: JSON = ["categories": ["billing": false]]
        let all = try Self.all(S.request("payment-failed", user: ["id": "u1"], prefs: off, permission: "granted", state: [:], params: ["id": "p1"]))
        #expect(all.map(\.reason) == ["category_off", "category_off", "on_time"])
        let first = S.decide(S.request("receipt", user: ["id": "u1"], prefs: off, permission: "granted", state: [:]), engine: S.engine("channels"))
        #expect(first.action == .schedule)
        #expect(first.channel == "in_app")
        #expect(first.key == "receipt:u1:2026-03-10")
        let on = S.decide(S.request("receipt", user: ["id": "u1"], permission: "granted", state: [:]), engine: S.engine("channels"))
        #expect(on.channel == "push")
    }

    /// With the category off and the kept channel's own category-channel toggle off too, the
    /// category toggle decides.
    @Test func keptChannelHonoursItsOwnToggle() throws {
        let prefs: JSON = ["categories": ["billing": false, "billing.in_app": false]]
        let decision = S.decide(S.request("receipt", user: ["id": "u1"], prefs: prefs, permission: "granted", state: [:]), engine: S.engine("channels"))
        #expect(decision.reason == "category_off")
    }

    /// A `delivery: first` type's decideAll is its one decision, byte for byte.
    @Test func firstDeliveryIsUnchanged() throws {
        let request = S.request("receipt", user: ["id": "u1"], permission: "granted", state: [:])
        let decisions = try Self.all(request)
        #expect(decisions.count == 1)
        #expect(decisions[0].json() == S.decide(request, engine: S.engine("channels")).json())
        #expect(S.engine("channels").deliversAll("payment-failed"))
        #expect(!S.engine("channels").deliversAll("receipt"))
    }

    /// Siblings do not count against each other; a later trigger sees every channel's entry.
    @Test func channelsFeedThePlan() throws {
        let engine = S.engine("channels")
        let first = S.request("payment-failed", user: ["id": "u1"], permission: "granted", state: [:], params: ["id": "p1"])
        let again = S.request("payment-failed", at: "2026-03-11T12:00:00Z", now: S.t0, user: ["id": "u1"], permission: "granted", state: [:],
                              params: ["id": "p1"])
        let plan = try engine.plan([first, again], now: S.instant(S.t0), horizon: 7 * 86_400).get()
        #expect(plan.decisions.count == 6)
        #expect(plan.decisions.prefix(3).allSatisfy { $0.action == .schedule })
        #expect(plan.decisions.suffix(3).allSatisfy { $0.reason == "rate_limited" })
        #expect(plan.deliveries.map(\.channel) == ["email", "in_app", "push"])
    }
}
