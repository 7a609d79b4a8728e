import HeraldContract
import HeraldEngine
import Testing

/// Batches that combine (issue 17 §4), planned over the shipped bundles: a cap's batch collects
/// every member over the cap in its window and flushes as one; a digest may stay a summary with
/// one member; a batch's thread id is declared by its group.
@Suite struct BatchCombineTests {
    typealias S = DecideSupport

    static let rinUser: JSON = ["id": "u1", "premium": false]
    static let rinState: JSON = ["badges": ["dedupUnreviewed": 0, "pendingAccessRequests": 0, "scoreChanged": false, "securityUnread": 0]]
    static let newYork: JSON = ["timezone": "America/New_York"]

    static func approval(_ n: Int, at hour: Int) -> DecisionRequest {
        let time = "2026-03-10T\(hour < 10 ? "0" : "")\(hour):00:00-04:00"
        return S.request("security.access_approved", at: time, now: "2026-03-10T07:00:00-04:00", user: rinUser,
                         prefs: newYork, permission: "granted", state: rinState,
                         params: ["contactId": .string("c-\(n)"), "ownerName": "Ada Quist", "field": "email address"])
    }

    @Test("R-§8.1 security.access_approved batched if >5: 8 approvals in a day are 5 pushes and one batch")
    func rinApprovalsCombine() throws {
        let engine = S.engine("policies/rin")
        let hours = [8, 9, 10, 11, 12, 13, 15, 18]
        let candidates = hours.enumerated().map { Self.approval($0.offset + 1, at: $0.element) }
        let plan = try engine.plan(candidates, now: S.instant("2026-03-10T07:00:00-04:00"), horizon: 86_400).get()
        #expect(plan.deliveries.count == 6)
        #expect(plan.batches.count == 1)
        let flushed = try #require(plan.batches.first)
        #expect(flushed.key == "approvals:u1:2026-03-10T17:00:00Z")
        // One notification, 30 s after the latest member (18:00), every member delivered with it.
        #expect(flushed.deliverAt == S.instant("2026-03-10T18:00:30-04:00"))
        #expect(plan.decisions.suffix(3).allSatisfy { $0.deliverAt == flushed.deliverAt })
        #expect(flushed.notification?.body == "3 access requests were approved.")
        // R-§6.3 the batch keeps the members' thread, `security.{type}`, not the group name.
        #expect(flushed.notification?.threadId == plan.decisions[0].notification?.threadId)
        #expect(flushed.notification?.threadId == "security.security.access_approved")
    }

    @Test("R-§6.3 batched enrichments are in the `contacts` thread")
    func rinEnrichmentThread() throws {
        let engine = S.engine("policies/rin")
        let candidates = (0 ..< 3).map { i in
            S.request("contacts.enrichment", at: "2026-03-10T10:00:\(i)0-04:00", now: "2026-03-10T09:00:00-04:00",
                      user: Self.rinUser, prefs: Self.newYork, permission: "granted", state: Self.rinState,
                      params: ["contactId": .string("c-\(i)"), "name": "Mara Lind"])
        }
        let plan = try engine.plan(candidates, now: S.instant("2026-03-10T09:00:00-04:00"), horizon: 86_400).get()
        let flushed = try #require(plan.batches.first)
        #expect(plan.batches.count == 1)
        #expect(flushed.notification?.threadId == "contacts")
        // R-§3.2 "[Name] and {count} others": the first member's name; the lock screen counts.
        #expect(flushed.notification?.body == "Mara Lind and 2 others updated their profiles. New info available.")
        #expect(flushed.notification?.lockscreen == "3 contacts updated their profiles. New info available.")
    }

    @Test("H-§10.2 inbox cap: with one overflowing import the 19:00 flush is the summary, not that import's push")
    func handzSummaryWithOneMember() throws {
        let engine = S.engine("policies/handz")
        let history: [JSON] = (1 ... 10).map { i in
            S.entry("N-INBOX-NEW-IMPORT", key: "N-INBOX-NEW-IMPORT:imp-\(i)", at: "2026-03-10T\(7 + i < 10 ? "0" : "")\(7 + i):00:00-04:00",
                    subject: "imp-\(i)", channel: "push")
        }
        let request = S.request("N-INBOX-NEW-IMPORT", at: "2026-03-10T18:05:00-04:00", user: ["id": "u1", "account": true, "tier": "pro"],
                                prefs: Self.newYork, permission: "granted", state: ["inbox": ["blockedSenders": []]],
                                params: ["importId": "imp-11", "senderId": "snd-1", "senderName": "Maya", "flowName": "Guard pass chain",
                                         "abuseFlagged": false],
                                history: history)
        let plan = try engine.plan([request], now: S.instant("2026-03-10T18:05:00-04:00"), horizon: 86_400).get()
        #expect(plan.decisions[0].action == .batch)
        let flushed = try #require(plan.batches.first)
        #expect(flushed.key == "inbox_summary:u1:2026-03-10")
        #expect(flushed.notification?.body == "You have new imports waiting.")
        #expect(flushed.notification?.title == "Inbox")
        #expect(flushed.deliverAt == S.instant("2026-03-10T19:00:00-04:00"))
    }

    @Test("K-§4 global hard cap: the user-set Activity reminder keeps the day's last slot, the nudge yields")
    func kwiltPriorityKeepsCapacity() throws {
        let engine = S.engine("policies/kwilt")
        let history: [JSON] = [S.entry("showup.daily", key: "showup.daily:u1:2026-03-10", at: "2026-03-10T08:00:00Z", status: "opened", channel: "local")]
        let prefs: JSON = ["timezone": "Europe/London", "categories": ["streakAndReactivation": true]]
        let state: JSON = ["engagement": ["currentShowUpStreak": 3, "lastShowUpDate": "2026-03-09"],
                           "activities": ["status": ["act-12": "open"]]]
        // The nudge comes first in the candidates and is triggered first; priority still decides.
        let nudge = S.request("streak.save", at: "2026-03-10T06:00:00Z", now: "2026-03-10T06:00:00Z", user: ["id": "u1"],
                              prefs: prefs, permission: "granted", state: state, params: ["days": 3], history: history)
        let reminder = S.request("activity.reminder", at: "2026-03-10T09:00:00Z", now: "2026-03-10T06:00:00Z", user: ["id": "u1"],
                                 prefs: prefs, permission: "granted", state: state,
                                 params: ["activityId": "act-12", "activityTitle": "Sketch the garden bed",
                                          "reminderAt": "2026-03-10T17:30:00Z", "connectedName": "Stewardship"],
                                 history: history)
        let plan = try engine.plan([nudge, reminder], now: S.instant("2026-03-10T06:00:00Z"), horizon: 86_400).get()
        #expect(plan.decisions[1].action == .schedule)
        #expect(plan.decisions[1].deliverAt == S.instant("2026-03-10T17:30:00Z"))
        #expect(plan.decisions[0].reason == "rate_limited")
        #expect(plan.decisions[0].cap == "global-daily")
    }
}
