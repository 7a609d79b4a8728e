import HeraldContract
import HeraldEngine
import HeraldPolicy
import Testing

/// The policy's `exemptions:` (docs/language.md § `exemptions`) on
/// `Tests/Fixtures/engine/exemptions`; the defaults are the other bundles' behaviour.
@Suite struct ExemptionsDecideTests {
    typealias S = DecideSupport
    static var engine: Engine { S.engine("exemptions") }

    static func decide(_ type: String, at: String = S.t0, prefs: JSON? = nil, params: JSON = [:], history: [JSON] = []) -> Decision {
        S.decide(S.request(type, at: at, user: ["id": "u1"], prefs: prefs, state: [:], params: params, history: history),
                 engine: engine)
    }

    @Test func lockedSkipsOnlyWhatIsListed() {
        #expect(Self.decide("code", prefs: ["pausedAll": true]).action == .schedule)
        #expect(Self.decide("code", prefs: ["categories": ["otp": false]]).action == .schedule)
        // `channel_off` is not listed: the SMS master toggle stops even a locked code.
        #expect(Self.decide("code", prefs: ["channels": ["sms": false]]).reason == "channel_off")
    }

    @Test func criticalSkipsTheGlobalCapOnly() {
        let history = [S.entry("followup", at: "2026-03-10T09:00:00Z", subject: "f0", channel: "sms")]
        #expect(Self.decide("followup", params: ["id": "f1"], history: history).cap == "one-a-day")
        #expect(Self.decide("pickup", params: ["id": "p1"], history: history).action == .schedule)
        // The category cap still applies to the critical type.
        let two = history + [S.entry("followup", at: "2026-03-10T10:00:00Z", subject: "f2", channel: "sms")]
        #expect(Self.decide("pickup", params: ["id": "p1"], history: two).cap == "ops-a-day")
    }

    @Test func criticalSkipsQuietHours() {
        let prefs: JSON = ["quietHours": ["start": "11:00", "end": "13:00"]]
        let pickup = Self.decide("pickup", prefs: prefs, params: ["id": "p1"])
        #expect(pickup.reason == "on_time")
        #expect(pickup.deliverAt == S.instant(S.t0))
        #expect(Self.decide("followup", prefs: prefs, params: ["id": "f1"]).reason == "quiet_hours")
    }

    /// Without the section, the defaults: a locked type passes the channel toggle; a critical
    /// type keeps the global caps.
    @Test func defaultsAreTheEarlierBehaviour() throws {
        let bundle = S.engine("channels").bundle
        #expect(bundle.exemptions.locked.count == 4)
        #expect(bundle.exemptions.critical == [.trainingDays])
    }
}
