import HeraldContract
import HeraldEngine
import Testing

/// Batches by thread (issue 18, P11; docs/decisions.md § Batches by thread), over Rin's
/// `threads` group (`by: threadId`, 30 s): the first member of a thread is delivered at once
/// and opens the thread's batch; later members join; a batch nobody joined flushes nothing.
@Suite struct ThreadBatchTests {
    typealias S = DecideSupport

    static let now = "2026-03-10T09:00:00-04:00"

    static func followup(_ id: String, contact: String, at time: String) -> DecisionRequest {
        S.request("reminder.followup", at: time, now: now, user: ["id": "u1", "premium": false],
                  prefs: ["timezone": "America/New_York"], permission: "granted",
                  state: ["badges": ["dedupUnreviewed": 0, "pendingAccessRequests": 0, "scoreChanged": false, "securityUnread": 0]],
                  params: ["reminderId": .string(id), "contactId": .string(contact), "remindAt": .string(time),
                           "name": "Mara Lind", "note": ""])
    }

    @Test("R-§8.2.4 a plan coalesces a thread whatever the order of its candidates")
    func planJoinsAnEarlierMember() throws {
        let engine = S.engine("policies/rin")
        // The later trigger is the first candidate.
        let later = Self.followup("r-2", contact: "c-1", at: "2026-03-10T10:00:20-04:00")
        let earlier = Self.followup("r-1", contact: "c-1", at: "2026-03-10T10:00:00-04:00")
        let plan = try engine.plan([later, earlier], now: S.instant(Self.now), horizon: 86_400).get()
        #expect(plan.batches.count == 1)
        #expect(plan.deliveries.count == 1)
        #expect(plan.decisions.allSatisfy { $0.action == .batch })
        let flushed = try #require(plan.batches.first)
        // One batch, opened at the earlier member's instant, flushed 30 s after it.
        #expect(flushed.key == "threads:u1:reminder.c-1:2026-03-10T14:00:00Z")
        #expect(flushed.deliverAt == S.instant("2026-03-10T10:00:30-04:00"))
        #expect(flushed.notification?.threadId == "reminder.c-1")
        #expect(flushed.notification?.link == "rin://contacts/c-1")
    }

    @Test("R-§8.2.4 two threads in one plan: two deliveries, no batch")
    func threadsStayApart() throws {
        let engine = S.engine("policies/rin")
        let plan = try engine.plan([Self.followup("r-1", contact: "c-1", at: "2026-03-10T10:00:00-04:00"),
                                    Self.followup("r-2", contact: "c-2", at: "2026-03-10T10:00:10-04:00")],
                                   now: S.instant(Self.now), horizon: 86_400).get()
        #expect(plan.batches.isEmpty)
        #expect(plan.deliveries.count == 2)
        #expect(plan.decisions.map(\.action) == [.schedule, .schedule])
        #expect(plan.decisions.map { $0.batch?.key } == ["threads:u1:reminder.c-1:2026-03-10T14:00:00Z",
                                                         "threads:u1:reminder.c-2:2026-03-10T14:00:10Z"])
    }

    @Test("a batch only its opener belongs to flushes nothing: the opener was delivered")
    func openerAloneFlushesNothing() throws {
        let engine = S.engine("policies/rin")
        let opener = S.decide(Self.followup("r-1", contact: "c-1", at: "2026-03-10T10:00:00-04:00"), engine: engine)
        #expect(opener.action == .schedule)
        let key = try #require(opener.batch?.key)
        #expect(engine.batchMembers(of: key, among: [opener]).isEmpty)
        // With a member that joined, the opener is the batch's first member, at the flush.
        let history = S.entry("reminder.followup", key: opener.key, at: "2026-03-10T10:00:00-04:00", status: "scheduled", batch: key)
        let second = S.request("reminder.followup", at: "2026-03-10T10:00:10-04:00", now: Self.now, user: ["id": "u1", "premium": false],
                               prefs: ["timezone": "America/New_York"], permission: "granted",
                               state: ["badges": ["dedupUnreviewed": 0, "pendingAccessRequests": 0, "scoreChanged": false, "securityUnread": 0]],
                               params: ["reminderId": "r-2", "contactId": "c-1", "remindAt": "2026-03-10T10:00:10-04:00",
                                        "name": "Mara Lind", "note": ""],
                               history: [history])
        let joined = S.decide(second, engine: engine)
        #expect(joined.action == .batch)
        #expect(joined.batch?.key == key)
        let members = engine.batchMembers(of: key, among: [opener, joined])
        #expect(members.map(\.action) == [.batch, .batch])
        #expect(members.first?.key == opener.key)
        let flushed = try #require(engine.flush(key, members: members))
        #expect(flushed.notification?.body == "Reminder: Follow up with Mara Lind. (2 updates)")
        #expect(flushed.deliverAt == S.instant("2026-03-10T10:00:30-04:00"))
    }

    @Test("R-§8.2.4 a member triggered before its thread's opener, within the window, joins that batch")
    func earlierMemberJoins() {
        let engine = S.engine("policies/rin")
        let key = "threads:u1:reminder.c-1:2026-03-10T14:00:20Z"
        let opener = S.entry("reminder.followup", key: "reminder.followup:r-2", at: "2026-03-10T10:00:20-04:00", status: "scheduled", batch: key)
        let request = S.request("reminder.followup", at: "2026-03-10T10:00:00-04:00", now: Self.now, user: ["id": "u1", "premium": false],
                                prefs: ["timezone": "America/New_York"], permission: "granted",
                                state: ["badges": ["dedupUnreviewed": 0, "pendingAccessRequests": 0, "scoreChanged": false, "securityUnread": 0]],
                                params: ["reminderId": "r-1", "contactId": "c-1", "remindAt": "2026-03-10T10:00:00-04:00",
                                         "name": "Mara Lind", "note": ""],
                                history: [opener])
        let decision = S.decide(request, engine: engine)
        #expect(decision.action == .batch)
        #expect(decision.batch?.key == key)
        #expect(decision.deliverAt == S.instant("2026-03-10T10:00:50-04:00"))
    }

    @Test("a type in no thread group carries no batch: it pays nothing for the construct")
    func otherTypesCarryNoBatch() {
        let engine = S.engine("policies/rin")
        let decision = S.decide(S.request("security.new_signin", at: "2026-03-10T10:00:00-04:00", now: Self.now,
                                          user: ["id": "u1", "premium": false], prefs: ["timezone": "America/New_York"],
                                          permission: "granted",
                                          state: ["badges": ["dedupUnreviewed": 0, "pendingAccessRequests": 0, "scoreChanged": false, "securityUnread": 0]],
                                          params: ["signinId": "s-1", "deviceOrLocation": "iPhone, Berlin"]), engine: engine)
        #expect(decision.batch == nil)
    }
}
