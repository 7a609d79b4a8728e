import HeraldContract
import HeraldEngine
import HeraldStore
import Testing

/// Decide-and-record, idempotent retries, events, retention and deletion, against every store.
@Suite struct DecisionRecorderTests {
    let t = StoreFixtures.monday

    func recorder(_ kind: StoreKind, cap: Int = 2, types: String = "") throws -> DecisionRecorder {
        DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: cap, types: types)), store: try kind.make())
    }

    @Test(arguments: StoreKind.allCases)
    func recordsScheduledDecisionsAndCountsThemAgainstTheCap(_ kind: StoreKind) async throws {
        let recorder = try recorder(kind)
        var actions: [String] = []
        for i in 0 ..< 3 {
            let result = try await recorder.decide(StoreFixtures.request(user: "u1", id: "n\(i)", at: t + i * 60))
            #expect(!result.replayed)
            actions.append(result.decisions[0].action.rawValue + "/" + result.decisions[0].reason)
        }
        #expect(actions == ["schedule/on_time", "schedule/on_time", "suppress/rate_limited"])
        let ledger = try await recorder.ledger(user: "u1")
        #expect(ledger.map(\.entry.key) == ["ping:n0", "ping:n1"])
        #expect(ledger.allSatisfy { $0.entry.status == .scheduled && $0.recordedAt >= t })
        // Another user's ledger is separate.
        let other = try await recorder.decide(StoreFixtures.request(user: "u2", id: "n0", at: t + 600))
        #expect(other.decisions[0].action == .schedule)
    }

    @Test(arguments: StoreKind.allCases)
    func aRetriedKeyReturnsTheStoredResponseByteForByteAndRecordsNothing(_ kind: StoreKind) async throws {
        let recorder = try recorder(kind)
        let first = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t), idempotencyKey: "req-1")
        #expect(first.recorded.count == 1)
        // The retry comes later (its own `now` would give another answer) and even differs: the key wins.
        let retry = try await recorder.decide(StoreFixtures.request(user: "u1", id: "b", at: t + 3600), idempotencyKey: "req-1")
        #expect(retry.replayed)
        #expect(Array(retry.response.utf8) == Array(first.response.utf8))
        #expect(retry.recorded.isEmpty && retry.decisions.isEmpty)
        #expect(try await recorder.ledger(user: "u1").count == 1)
        // A suppressed answer is stored too: its retry stays suppressed even when there is room.
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "c", at: t + 60))
        let limited = try await recorder.decide(StoreFixtures.request(user: "u1", id: "d", at: t + 120), idempotencyKey: "req-2")
        #expect(limited.decisions.first?.reason == "rate_limited")
        let again = try await recorder.decide(StoreFixtures.request(user: "u1", id: "d", at: t + 86_400 * 2), idempotencyKey: "req-2")
        #expect(again.replayed && again.response == limited.response)
        // The same key of another user is another request.
        let otherUser = try await recorder.decide(StoreFixtures.request(user: "u2", id: "a", at: t), idempotencyKey: "req-1")
        #expect(!otherUser.replayed)
    }

    @Test(arguments: StoreKind.allCases)
    func eventsUpdateByKeyAndAnUnknownKeyIsAnError(_ kind: StoreKind) async throws {
        let recorder = try recorder(kind)
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t))
        let updated = try await recorder.event(user: "u1", key: "ping:a", .dismissed, at: t + 100)
        #expect(updated.entry.status == .dismissed && updated.updatedAt == t + 100)
        #expect(try await recorder.ledger(user: "u1").map(\.entry.status) == [.dismissed])
        await #expect(throws: StoreError.unknownKey(user: "u1", key: "ping:zzz")) {
            try await recorder.event(user: "u1", key: "ping:zzz", .opened, at: t + 200)
        }
        // Another user's key is unknown to this user.
        await #expect(throws: StoreError.self) { try await recorder.event(user: "u2", key: "ping:a", .opened, at: t) }
        #expect(try await recorder.ledger(user: "u1").count == 1)
        #expect(try await recorder.ledger(user: "u2").isEmpty)
        // Cancelled frees the key: a new entry with it may be recorded, and events then find the live one.
        _ = try await recorder.event(user: "u1", key: "ping:a", .cancelled, at: t + 300)
        await #expect(throws: StoreError.self) { try await recorder.event(user: "u1", key: "ping:a", .opened, at: t + 301) }
        let again = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t + 400))
        #expect(again.decisions[0].action == .schedule)
        #expect(try await recorder.event(user: "u1", key: "ping:a", .opened, at: t + 500).entry.status == .opened)
        #expect(try await recorder.ledger(user: "u1").map(\.entry.status) == [.cancelled, .opened])
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyOlderThanTheReadWindowIsStillADuplicate(_ kind: StoreKind) async throws {
        // `ping:{id}` has no date and no dedupe window: the key dedupes forever, but the read
        // window is days. The unit of work finds the live key and decides again with it.
        let recorder = try recorder(kind)
        #expect(recorder.window.lookback == 4 * 86_400)
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t))
        let late = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t + 30 * 86_400))
        #expect(late.decisions[0].reason == "duplicate")
        #expect(late.recorded.isEmpty)
        #expect(try await recorder.ledger(user: "u1").count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func pruneDeletesWhatThePolicyCannotSeeButKeepsLifetimeTypes(_ kind: StoreKind) async throws {
        let welcomeType = """
              welcome:
                category: news
                channels: [push]
                idempotencyKey: "welcome"
                caps: [ { max: 1, per: lifetime } ]
                copy: { body: "Welcome." }

            """
        let recorder = try recorder(kind, cap: 5, types: welcomeType)
        #expect(recorder.window.lifetimeTypes == ["welcome"])
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "old", at: t))
        var welcome = StoreFixtures.request(user: "u1", id: "x", at: t)
        welcome.type = "welcome"
        welcome.params = [:]
        #expect(try await recorder.decide(welcome).recorded.count == 1)
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "new", at: t + 9 * 86_400))
        let deleted = try await recorder.prune(now: t + 10 * 86_400)
        #expect(deleted == 1)
        #expect(try await recorder.ledger(user: "u1").map(\.entry.key) == ["welcome", "ping:new"])
        // The lifetime cap still holds after the prune.
        welcome.at = t + 20 * 86_400
        welcome.now = welcome.at
        #expect(try await recorder.decide(welcome).decisions[0].action == .suppress)
    }

    @Test(arguments: StoreKind.allCases)
    func forgetDeletesEveryRowOfTheUser(_ kind: StoreKind) async throws {
        let recorder = try recorder(kind)
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t), idempotencyKey: "k")
        _ = try await recorder.decide(StoreFixtures.request(user: "u2", id: "a", at: t))
        #expect(try await recorder.forget(user: "u1") == 1)
        #expect(try await recorder.ledger(user: "u1").isEmpty)
        #expect(try await recorder.ledger(user: "u2").count == 1)
        // The stored response went too: the key decides afresh.
        #expect(try await !recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t), idempotencyKey: "k").replayed)
    }

    @Test(arguments: StoreKind.allCases)
    func aBadRequestRecordsNothing(_ kind: StoreKind) async throws {
        let recorder = try recorder(kind)
        var request = StoreFixtures.request(user: "u1", id: "a", at: t)
        request.params = ["id": .int(3)]
        await #expect(throws: RequestErrors.self) { try await recorder.decide(request, idempotencyKey: "bad") }
        request.user = ["id": .string("")]
        await #expect(throws: StoreError.missingUser) { try await recorder.decide(request) }
        #expect(try await recorder.ledger(user: "u1").isEmpty)
        // The failed key was not stored.
        #expect(try await !recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: t), idempotencyKey: "bad").replayed)
    }

    @Test(arguments: StoreKind.allCases)
    func reconcileRecordsAdditionsAndCancellationsAndIsIdempotent(_ kind: StoreKind) async throws {
        let recorder = try recorder(kind, cap: 5)
        func plan(_ ids: [String]) throws -> PlanRequest {
            let candidates = ids.map { #"{"type": "ping", "at": "2026-03-09T11:00:00Z", "params": {"id": "\#($0)"}}"# }
            return try PlanRequest.parse("""
                {"now": "2026-03-09T10:00:00Z", "horizon": "7d", "user": {"id": "u1"}, "permission": "granted",
                 "candidates": [\(candidates.joined(separator: ", "))]}
                """)
        }
        let first = try await recorder.reconcile(try plan(["a", "b"]))
        #expect(first.recorded.map(\.key) == ["ping:a", "ping:b"])
        let again = try await recorder.reconcile(try plan(["a", "b"]))
        #expect(again.recorded.isEmpty)
        let unchanged = try JSON.parse(again.response)
        #expect(unchanged["add"]?.elements?.isEmpty == true && unchanged["cancel"]?.elements?.isEmpty == true)
        #expect(unchanged["keep"]?.elements?.count == 2)
        let fewer = try await recorder.reconcile(try plan(["a"]))
        #expect(try JSON.parse(fewer.response)["cancel"]?.elements?.first?["key"]?.stringValue == "ping:b")
        let ledger = try await recorder.ledger(user: "u1")
        #expect(ledger.map { "\($0.entry.key) \($0.entry.status)" } == ["ping:a scheduled", "ping:b cancelled"])
        // A plan request names one user (its candidates carry none); without an id nothing is recorded.
        var anonymous = try plan(["a"])
        anonymous.user.user = ["tier": "free"]
        await #expect(throws: (any Error).self) { try await recorder.reconcile(anonymous) }
    }
}
