import Testing
import HeraldContract
import HeraldEngine

/// A decision the engine made reads its table-backed fields (type, category, channel,
/// fallback, literal copy, static link, thread id, interruption level, rule, policy) from
/// its type's table; these check that they read as values would, and that changing one
/// writes the rest out unchanged.
@Suite struct DecisionFieldsTests {
    typealias S = DecideSupport

    @Test func literalAndRenderedCopyTogether() throws {
        let d = S.decide(S.request("daily", params: ["count": 2]))
        #expect(d.type == "daily")
        #expect(d.category == "reminders")
        #expect(d.channel == "local")
        #expect(d.fallback == nil)
        #expect(d.policy.name == S.engine().bundle.name)
        let n = try #require(d.notification)
        #expect(n.title == "Practice")                  // literal: from the table
        #expect(n.body == "2 drills today.")            // rendered for this request
        #expect(n.lockscreen == "Drills today.")
        #expect(n.link == "demo://home")                // static link
        #expect(n.threadId == "reminders")              // no template: the category
        #expect(n.interruptionLevel == "active")
        #expect(n.badge == 2)                           // state.unread
        #expect(d.rule?.id == "daily.timing")
    }

    @Test func renderedLinkAndFallback() throws {
        let item = S.decide(S.request("news-item", params: ["id": "a b"]))
        #expect(item.notification?.link == "demo://item?id=a%20b")
        #expect(item.notification?.body == "Story a b.")
        #expect(item.notification?.title == nil)
        let denied = S.decide(S.request("daily", permission: "denied", params: ["count": 2]))
        #expect(denied.channel == "in_app")
        #expect(denied.fallback == "in_app")
    }

    @Test func suppressedHasNoNotification() {
        let d = S.decide(S.request("daily", state: ["streak": 0, "unread": 0], params: ["count": 2]))
        #expect(d.action == .suppress)
        #expect(d.notification == nil)
        #expect(d.channel == "local")
        #expect(d.rule?.id == "no-streak")
    }

    /// Changing a table-backed field keeps every other one, in the copy only.
    @Test func changingOneFieldKeepsTheRest() throws {
        let original = S.decide(S.request("daily", permission: "denied", params: ["count": 2]))
        var changed = original
        changed.channel = "push"
        #expect(changed.channel == "push")
        #expect(original.channel == "in_app")
        #expect(changed.type == original.type && changed.category == original.category)
        #expect(changed.fallback == original.fallback && changed.rule == original.rule)
        #expect(changed.notification == original.notification && changed.trace == original.trace)
        #expect(changed.policy == original.policy && changed.key == original.key)
        changed.channel = original.channel
        #expect(changed == original)
        #expect(changed.json() == original.json())
        var cleared = original
        cleared.notification = nil
        #expect(cleared.notification == nil && original.notification != nil)
    }
}
