import HeraldContract
import HeraldEngine
import Testing

@Suite struct PlanTests {
    typealias S = DecideSupport

    @Test func priorityKeepsCapacity() throws {
        let engine = S.engine("plan")
        let promo = S.request("promo", user: ["id": "u1"], state: [:], params: ["id": "p1"])
        let alert = S.request("alert", at: "2026-03-10T15:00:00Z", now: S.t0, user: ["id": "u1"], state: [:], params: ["id": "a1"])
        let plan = try engine.plan([promo, alert], now: S.instant(S.t0), horizon: 86_400).get()
        #expect(plan.decisions.map(\.type) == ["promo", "alert"])
        #expect(plan.decisions[0].reason == "rate_limited")
        #expect(plan.decisions[1].action == .schedule)
        #expect(plan.deliveries.map(\.type) == ["alert"])
    }

    @Test func batchesFormFromAllMembers() throws {
        let engine = S.engine()
        let plan = try engine.plan([S.request("tip"), S.request("tip2")], now: S.instant(S.t0), horizon: 86_400).get()
        #expect(plan.decisions.allSatisfy { $0.action == .batch })
        #expect(Set(plan.decisions.compactMap { $0.batch?.key }) == ["tips:u1:2026-03-10T12:00:00Z"])
        #expect(plan.batches.count == 1)
        let flushed = try #require(plan.batches.first)
        #expect(flushed.notification?.body == "2 tips are waiting.")
        #expect(flushed.notification?.link == "demo://home")
        #expect(flushed.deliverAt == S.instant("2026-03-10T12:15:00Z"))
        #expect(flushed.key == "tips:u1:2026-03-10T12:00:00Z")
    }

    @Test func flushAloneRendersTheMembersOwnNotification() throws {
        let engine = S.engine()
        let member = S.decide(S.request("tip2", history: [S.entry("tip", at: "2026-03-10T11:55:00Z", status: "scheduled")]))
        let flushed = try #require(engine.flush(member.batch!.key, members: [member]))
        #expect(flushed.notification?.body == "Another tip.")
        #expect(flushed.action == .schedule)
        #expect(engine.flush("x", members: []) == nil)
    }

    /// A candidate's problems carry its index; the user's, converted once for every candidate,
    /// carry none.
    @Test func errorsStayWithTheirCandidate() throws {
        let engine = S.engine()
        let bad = [S.request("otp"), S.request("otp", params: ["nope": 1]), S.request("otp")]
        guard case .failure(let problems) = engine.plan(bad, now: S.instant(S.t0), horizon: 86_400) else {
            Issue.record("a plan with an unknown param must fail")
            return
        }
        #expect(problems.errors.map(\.path) == ["candidates[1].params.nope"])
        let badUser = [S.request("otp", state: ["streak": "three", "unread": 2]), S.request("otp", state: ["streak": "three", "unread": 2])]
        guard case .failure(let userProblems) = engine.plan(badUser, now: S.instant(S.t0), horizon: 86_400) else {
            Issue.record("a plan with a wrong-typed state field must fail")
            return
        }
        #expect(userProblems.errors.map(\.path) == ["state.streak"])
    }

    @Test func horizonLimitsDeliveries() throws {
        let engine = S.engine()
        let later = S.request("morning")  // 09:00 tomorrow
        let plan = try engine.plan([later], now: S.instant(S.t0), horizon: 3600).get()
        #expect(plan.decisions.count == 1 && plan.deliveries.isEmpty)
    }

    @Test func reconcileAddsKeepsUpdatesCancels() throws {
        let engine = S.engine()
        let plan = try engine.plan([S.request("otp"), S.request("morning")], now: S.instant(S.t0), horizon: 7 * 86_400).get()
        let stale = PendingEntry(key: "old", type: "otp", deliverAt: 5)
        let first = engine.reconcile(plan, pending: [stale])
        #expect(first.cancel == [stale] && first.add.count == 2 && first.keep.isEmpty && first.update.isEmpty)
        let pending = first.applied
        let second = engine.reconcile(plan, pending: pending)
        #expect(second.isEmpty && second.keep.count == 2)
        // Same key, another time: an update (identity kept), not a cancel plus an add.
        let moved = pending.map { e in var e = e; e.deliverAt += 60; return e }
        let third = engine.reconcile(plan, pending: moved)
        #expect(third.update.count == 2 && third.cancel.isEmpty && third.add.isEmpty)
        #expect(third.update.allSatisfy { $0.changed == ["deliverAt"] })
        // Same key and time, other copy: an update naming the field.
        var reworded = pending
        reworded[0].body = "something else"
        let fourth = engine.reconcile(plan, pending: reworded)
        #expect(fourth.update.map(\.changed) == [["body"]] && fourth.keep.count == 1)
        // A second pending entry of one key is cancelled.
        let fifth = engine.reconcile(plan, pending: pending + [pending[0]])
        #expect(fifth.cancel == [pending[0]] && fifth.keep.count == 2)
    }

    @Test func reconcileRequestKeepsPendingOutOfHistory() throws {
        let text = """
        { "now": "2026-03-10T12:00:00Z", "user": { "id": "u1" }, "prefs": { "timezone": "UTC" },
          "history": [ { "key": "k", "type": "alert", "deliverAt": "2026-03-10T11:00:00Z", "status": "scheduled" } ],
          "candidates": [ { "type": "alert", "at": "2026-03-10T12:00:00Z", "params": { "id": "a" } } ],
          "pending": [ { "key": "k", "type": "alert" }, 3 ] }
        """
        #expect(throws: RequestErrors.self) { try ReconcileRequest.parse(text) }
        do {
            _ = try ReconcileRequest.parse(text)
        } catch {
            #expect(error.paths == ["pending[0].deliverAt", "pending[1]", "history[0].status"])
        }
        let missing = #"{ "now": "2026-03-10T12:00:00Z", "user": { "id": "u1" }, "candidates": [] }"#
        do {
            _ = try ReconcileRequest.parse(missing)
            Issue.record("a request without `pending` was accepted")
        } catch {
            #expect(error.paths == ["pending"])
        }
    }

    @Test func planRequestJSON() throws {
        let text = """
        { "now": "2026-03-10T12:00:00Z", "horizon": "2d", "user": { "id": "u1" }, "prefs": { "timezone": "UTC" },
          "candidates": [ { "type": "alert", "at": "2026-03-10T12:00:00Z", "params": { "id": "a" } },
                          { "type": "promo", "at": "2026-03-10T12:00:00Z", "params": { "id": "p" } } ] }
        """
        let request = try PlanRequest.parse(text)
        #expect(request.candidates.count == 2 && request.horizon == 172_800)
        let bad = #"{ "now": "2026-03-10T12:00:00Z", "user": { "id": "u1" }, "candidates": [ { "type": "alert", "at": "soon", "colour": 1 } ] }"#
        #expect(throws: RequestErrors.self) { try PlanRequest.parse(bad) }
        do {
            _ = try PlanRequest.parse(bad)
        } catch {
            #expect(error.paths == ["candidates[0].colour", "candidates[0].at"])
        }
    }
}
