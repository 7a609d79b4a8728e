import HeraldContract
import HeraldEngine
import Testing

/// Quiet delivery (`quietHours.during: passive`, `provisional: passive`), a sound switched by a
/// preference (`sound.when`) and `foreground` (docs/decisions.md § Quiet delivery, §
/// Presentation), on `Tests/Fixtures/engine/quiet`.
@Suite struct QuietDeliveryTests {
    typealias S = DecideSupport

    static func decide(_ type: String, at: String = S.t0, prefs: JSON? = nil, permission: String = "granted") throws -> Decision {
        let request = S.request(type, at: at, user: ["id": "u1"], prefs: prefs, permission: permission, state: ["unread": 4])
        return try S.engine("quiet").decide(request, now: request.now).get()
    }

    /// 23:00–07:00 UTC quiet hours.
    static func night() -> JSON {
        ["timezone": "UTC", "quietHours": ["start": "23:00", "end": "07:00"]]
    }

    @Test func theSoundPlaysWhileThePreferenceHolds() throws {
        let on = try Self.decide("message")
        #expect(on.notification?.presentation?.sound == "chime.caf")
        let off = try Self.decide("message", prefs: ["sound": false])
        #expect(off.action == .schedule)
        #expect(off.notification?.presentation?.sound == nil)
        #expect(off.notification?.interruptionLevel == "active")
        #expect(off.json()["notification"]?["sound"] == nil)
    }

    @Test func aSoundWithoutConditionIgnoresThePreference() throws {
        let d = try Self.decide("alarm", prefs: ["sound": false])
        #expect(d.notification?.presentation?.sound == "alarm.caf")
    }

    @Test func foregroundIsRenderedAfterTheOtherKeys() throws {
        #expect(try Self.decide("message").notification?.presentation?.foreground == "banner")
        #expect(try Self.decide("alarm").json()["notification"]?["foreground"] == .string("list"))
        #expect(try Self.decide("digest").notification?.presentation?.foreground == "none")
    }

    @Test func insideQuietHoursPassiveDeliversAtOnceWithoutSound() throws {
        let d = try Self.decide("message", at: "2026-03-10T23:30:00Z", prefs: Self.night())
        #expect(d.action == .schedule)
        #expect(d.reason == "quiet_hours_passive")
        #expect(d.deliverAt == S.instant("2026-03-10T23:30:00Z"))
        #expect(d.rule?.id == "quietHours")
        #expect(d.notification?.interruptionLevel == "passive")
        #expect(d.notification?.presentation?.sound == nil)
        #expect(d.notification?.badge == 4)
        let timing = try #require(d.trace.first { $0.stage == .timing })
        #expect(timing.detail?.contains("inside quiet hours 23:00–07:00: delivered passive, without sound") == true)
    }

    @Test func outsideQuietHoursPassiveChangesNothing() throws {
        let d = try Self.decide("message", at: "2026-03-10T22:30:00Z", prefs: Self.night())
        #expect(d.reason == "on_time")
        #expect(d.notification?.interruptionLevel == "active")
        #expect(d.notification?.presentation?.sound == "chime.caf")
    }

    @Test func aBypassingTypeKeepsItsLevelAndSoundInQuietHours() throws {
        let d = try Self.decide("alarm", at: "2026-03-10T23:30:00Z", prefs: Self.night())
        #expect(d.reason == "on_time")
        #expect(d.notification?.interruptionLevel == "active")
        #expect(d.notification?.presentation?.sound == "alarm.caf")
    }

    @Test func aProvisionalPermissionDeliversWithoutSoundOrBadge() throws {
        let d = try Self.decide("message", permission: "provisional")
        #expect(d.action == .schedule)
        #expect(d.reason == "on_time")
        #expect(d.notification?.interruptionLevel == "passive")
        #expect(d.notification?.presentation?.sound == nil)
        #expect(d.notification?.badge == nil)
        let permission = try #require(d.trace.first { $0.stage == .permission })
        #expect(permission.rule == "provisional")
        #expect(permission.detail == "provisional permission: delivered quietly (passive, no sound, no badge)")
    }

    @Test func aChannelWithoutOSPermissionIsNotMadeQuiet() throws {
        let d = try Self.decide("digest", permission: "provisional")
        #expect(d.notification?.interruptionLevel == "active")
        #expect(d.notification?.badge == 4)
        #expect(d.trace.first { $0.stage == .permission }?.rule == nil)
    }

    @Test func aGrantedPermissionKeepsTheBadgeAndSound() throws {
        let d = try Self.decide("message", permission: "granted")
        #expect(d.notification?.interruptionLevel == "active")
        #expect(d.notification?.badge == 4)
        #expect(d.notification?.presentation?.sound == "chime.caf")
    }
}
