import HeraldContract
import HeraldEngine
import Testing

/// Presentation keys, per-channel labels and tab badges (docs/decisions.md § Presentation), on
/// `Tests/Fixtures/engine/presentation`.
@Suite struct PresentationDecideTests {
    typealias S = DecideSupport

    static func decide(_ type: String, params: JSON = [:], state: JSON = ["inbox": 2, "requests": 3]) throws -> Decision {
        let request = S.request(type, user: ["id": "u1"], permission: "granted", state: state, params: params)
        return try S.engine("presentation").decide(request, now: request.now).get()
    }

    @Test func aTypesKeysReplaceItsCategorysKeyByKey() throws {
        let decision = try Self.decide("followup", params: ["contactId": "c-1", "name": "Ada"])
        let p = try #require(decision.notification?.presentation)
        #expect(p.sound == "reminder.caf")
        #expect(p.osChannel == "reminders")
        #expect(p.actions == [.init(id: "call", title: "Call")])
        #expect(p.relevance == 0.5)
        #expect(p.payload.map(\.key) == ["contactId", "source"])
        #expect(p.payload.map(\.value) == ["c-1", "reminders"])
        #expect(p.categoryTitle == nil)
    }

    @Test func thePayloadIsRenderedForEachRequest() throws {
        let a = try Self.decide("followup", params: ["contactId": "c-1", "name": "Ada"])
        let b = try Self.decide("followup", params: ["contactId": "c-2", "name": "Bo"])
        #expect(a.notification?.presentation?.payload.first?.value == "c-1")
        #expect(b.notification?.presentation?.payload.first?.value == "c-2")
    }

    @Test func tabBadgesAreRenderedAndTheBadgeIsTheirSum() throws {
        let decision = try Self.decide("note")
        let badges = try #require(decision.notification?.presentation?.badges)
        #expect(badges.map(\.tab) == ["home", "circles"])
        #expect(badges.map(\.count) == [2, 3])
        #expect(decision.notification?.badge == 5)
    }

    @Test func aTabWithoutItsFieldsIsLeftOutAndThereIsNoSum() throws {
        let decision = try Self.decide("note", state: ["inbox": 2])
        #expect(decision.notification?.presentation?.badges.map(\.tab) == ["home"])
        #expect(decision.notification?.badge == nil)
    }

    @Test func theCategoryTitleIsTheLabelOfTheDecisionsChannel() throws {
        let request = S.request("receipt", user: ["id": "u1"], permission: "granted", state: ["inbox": 0, "requests": 0])
        let decisions = try S.engine("presentation").decideAll(request, now: request.now).get()
        #expect(decisions.map(\.channel) == ["push", "email"])
        #expect(decisions.map { $0.notification?.presentation?.categoryTitle } == ["Payment & Billing", "Invoices & Receipts"])
    }

    @Test func theJSONCarriesThePresentationAfterTheBadge() throws {
        let decision = try Self.decide("followup", params: ["contactId": "c-1", "name": "Ada"])
        let notification = try #require(decision.json()["notification"])
        #expect(notification["sound"] == .string("reminder.caf"))
        #expect(notification["actions"] == .array([["id": .string("call"), "title": .string("Call")]]))
        #expect(notification["relevance"] == .double(0.5))
        #expect(notification["payload"]?["contactId"] == .string("c-1"))
        #expect(notification["badges"]?["circles"] == .int(3))
        #expect(notification["categoryTitle"] == nil)
    }

    /// A bundle without presentation keys, tabs or labels renders no presentation at all.
    @Test func aTypeWithoutKeysHasNoPresentation() throws {
        let request = S.request("daily", permission: "granted", params: ["count": 2])
        let decision = try S.engine("basic").decide(request, now: request.now).get()
        #expect(decision.notification != nil)
        #expect(decision.notification?.presentation == nil)
        #expect(decision.json()["notification"]?["sound"] == nil)
    }
}
