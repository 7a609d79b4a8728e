#if Server
import Dispatch
import HeraldContract
import HeraldEngine
@testable import HeraldPostgres
import HeraldStore
import HeraldTestSupport
import PostgresNIO
import Synchronization
import Testing

/// The PostgreSQL store's behaviour, against a real server (each test in a database of its own).
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipNote))
struct PostgresLedgerStoreTests {
    @Test func recordsScheduledDecisionsAndCountsThemAgainstTheCap() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: 2)), store: store)
            let t = PostgresFixtures.monday
            var actions: [String] = []
            for i in 0 ..< 3 {
                let result = try await recorder.decide(PostgresFixtures.request(user: "u1", id: "n\(i)", at: t + i * 60))
                #expect(!result.replayed)
                actions.append(result.decisions[0].action.rawValue + "/" + result.decisions[0].reason)
            }
            #expect(actions == ["schedule/on_time", "schedule/on_time", "suppress/rate_limited"])
            let ledger = try await recorder.ledger(user: "u1")
            #expect(ledger.map(\.entry.key) == ["ping:n0", "ping:n1"])
            #expect(ledger.allSatisfy { $0.entry.status == .scheduled && $0.recordedAt >= t })
            #expect(try await recorder.ledger(user: "u2").isEmpty)
            await store.close()
        }
    }

    /// `/readyz`'s probe: a row written and rolled back; the database is left as it was.
    @Test func checkWritableWritesNothing() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            try await store.checkWritable()
            try await store.checkWritable()
            let users = try await PostgresTestServer.admin(url) { connection, logger in
                try await connection.query("SELECT count(*) FROM herald_users", logger: logger).decode(Int.self).reduce(into: 0) { $0 += $1 }
            }
            #expect(users == 0)
            await store.close()
        }
    }

    @Test func aRetriedRequestGetsTheStoredResponseByteForByteAndRecordsNothing() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: 5)), store: store)
            let t = PostgresFixtures.monday
            let first = try await recorder.decide(PostgresFixtures.request(user: "u1", id: "a", at: t), idempotencyKey: "req-1")
            // The same idempotency key with another trigger and a later clock: the stored answer.
            let retry = try await recorder.decide(PostgresFixtures.request(user: "u1", id: "b", at: t + 3600), idempotencyKey: "req-1")
            #expect(!first.replayed)
            #expect(retry.replayed)
            #expect(Array(retry.response.utf8) == Array(first.response.utf8))
            #expect(retry.recorded.isEmpty)
            #expect(try await recorder.ledger(user: "u1").map(\.entry.key) == ["ping:a"])
            // Idempotency keys are per user.
            let other = try await recorder.decide(PostgresFixtures.request(user: "u2", id: "b", at: t), idempotencyKey: "req-1")
            #expect(!other.replayed)
            await store.close()
        }
    }

    @Test func eventsUpdateAnEntryByKeyAndAnUnknownKeyIsAnError() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: 5)), store: store)
            let t = PostgresFixtures.monday
            _ = try await recorder.decide(PostgresFixtures.request(user: "u1", id: "a", at: t))
            let record = try await recorder.event(user: "u1", key: "ping:a", .dismissed, at: t + 60)
            #expect(record.entry.status == .dismissed)
            #expect(record.updatedAt == t + 60)
            let error = await #expect(throws: StoreError.self) {
                try await recorder.event(user: "u1", key: "ping:nope", .opened, at: t + 60)
            }
            #expect(error?.code == .unknownKey)
            #expect(error?.message == "no live entry of user `u1` has key `ping:nope`")
            // A cancelled entry no longer holds its key.
            _ = try await recorder.event(user: "u1", key: "ping:a", .cancelled, at: t + 120)
            await #expect(throws: StoreError.self) { try await recorder.event(user: "u1", key: "ping:a", .opened, at: t + 180) }
            #expect(try await recorder.ledger(user: "u1").map(\.entry.status) == [.cancelled])
            await store.close()
        }
    }

    @Test func forgetDeletesEveryRowOfTheUserOnly() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: 5)), store: store)
            let t = PostgresFixtures.monday
            for user in ["u1", "u2"] {
                for i in 0 ..< 3 {
                    _ = try await recorder.decide(PostgresFixtures.request(user: user, id: "n\(i)", at: t + i), idempotencyKey: "r\(i)")
                }
            }
            #expect(try await recorder.forget(user: "u1") == 3)
            #expect(try await recorder.ledger(user: "u1").isEmpty)
            #expect(try await recorder.ledger(user: "u2").count == 3)
            // The stored responses went too: the same idempotency key decides afresh.
            let again = try await recorder.decide(PostgresFixtures.request(user: "u1", id: "n0", at: t), idempotencyKey: "r0")
            #expect(!again.replayed)
            #expect(try await recorder.forget(user: "nobody") == 0)
            await store.close()
        }
    }

    @Test func pruneDeletesWhatNoWindowReachesAndKeepsLifetimeTypes() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let t = PostgresFixtures.monday
            let entries = [
                HistoryEntry(key: "old-a", type: "a", deliverAt: t - 100, status: .delivered),
                HistoryEntry(key: "old-life", type: "life", deliverAt: t - 100, status: .delivered),
                HistoryEntry(key: "new-a", type: "a", deliverAt: t + 100, status: .scheduled),
            ]
            _ = try await store.commit(user: "u1", read: .all, requestKey: "old", now: t - 100) { _ in
                (LedgerProposal(insert: entries, response: "{}"), 0)
            }
            #expect(try await store.prune(before: t, keepTypes: ["life"]) == 1)
            #expect(try await store.entries(user: "u1").map(\.entry.key) == ["old-life", "new-a"])
            // The response stored before the cut-off went: the key decides afresh.
            let again = try await store.commit(user: "u1", read: .all, requestKey: "old", now: t) { _ in
                (LedgerProposal(response: "{\"again\":true}"), 1)
            }
            #expect(!again.replayed)
            await store.close()
        }
    }

    @Test func aKeyHeldByALiveEntryOutsideTheReadIsShownToDecideAndNeverRecordedTwice() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let t = PostgresFixtures.monday
            let old = HistoryEntry(key: "k", type: "a", deliverAt: t - 1000, status: .scheduled)
            _ = try await store.commit(user: "u1", read: .all, requestKey: nil, now: t - 1000) { _ in
                (LedgerProposal(insert: [old], response: "{}"), 0)
            }
            // A read that starts after the old entry: the store adds the colliding entry, and a
            // decide that sees it inserts nothing.
            let seen = try await store.commit(user: "u1", read: LedgerRead(since: t), requestKey: nil, now: t) { records in
                let holds = records.contains { $0.entry.key == "k" }
                let insert = holds ? [] : [HistoryEntry(key: "k", type: "a", deliverAt: t, status: .scheduled)]
                return (LedgerProposal(insert: insert, response: "{}"), holds)
            }
            #expect(seen.value == true)
            // A decide that insists gets H0707, and nothing is written.
            let error = await #expect(throws: StoreError.self) {
                try await store.commit(user: "u1", read: LedgerRead(since: t), requestKey: "x", now: t) { _ in
                    (LedgerProposal(insert: [HistoryEntry(key: "k", type: "a", deliverAt: t, status: .scheduled)], response: "{}"), 0)
                }
            }
            #expect(error?.code == .keyConflict)
            #expect(try await store.entries(user: "u1").map(\.entry.key) == ["k"])
            await store.close()
        }
    }

    @Test func aFailedDecisionRollsTheWholeUnitBack() async throws {
        struct Refused: Error {}
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            await #expect(throws: Refused.self) {
                try await store.commit(user: "u1", read: .all, requestKey: "r", now: 0) { _ -> (LedgerProposal, Int) in
                    throw Refused()
                }
            }
            // An update of a key nobody holds fails the unit after its insert was written: both go.
            let t = PostgresFixtures.monday
            let error = await #expect(throws: StoreError.self) {
                try await store.commit(user: "u1", read: .all, requestKey: "r", now: t) { _ in
                    (LedgerProposal(insert: [HistoryEntry(key: "new", type: "a", deliverAt: t, status: .scheduled)],
                                    update: [HistoryEntry(key: "missing", type: "a", deliverAt: t, status: .scheduled)],
                                    response: "{}"), 0)
                }
            }
            #expect(error?.code == .unknownKey)
            #expect(try await store.entries(user: "u1").isEmpty)
            let fresh = try await store.commit(user: "u1", read: .all, requestKey: "r", now: t) { _ in (LedgerProposal(response: "{}"), 0) }
            #expect(!fresh.replayed)
            await store.close()
        }
    }

    /// A unit reads without the user's lock; whatever is committed for the user before its write
    /// (here an event, applied while `decide` runs) makes the write refuse, and the unit runs again
    /// under the lock on what is there now: it never writes on a ledger it did not see.
    @Test func aChangeBetweenTheReadAndTheWriteMakesTheUnitDecideAgainOnTheNewLedger() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let t = PostgresFixtures.monday
            let entry = HistoryEntry(key: "a", type: "ping", deliverAt: t, status: .scheduled)
            _ = try await store.commit(user: "u1", read: .all, requestKey: nil, now: t) { _ in
                (LedgerProposal(insert: [entry], response: "{}"), 0)
            }
            let seen = Mutex<[[HistoryEntry.Status]]>([])
            // The unit runs on a thread of its own, which `decide` blocks while the event is
            // applied on the cooperative pool (blocking one of the pool's threads could starve
            // the event when the suites beside this one keep the other busy).
            let own = OwnThreadExecutor()
            let commit = try await Task(executorPreference: own) {
                try await store.commit(user: "u1", read: .all, requestKey: "r", now: t + 60) { records in
                    let first = seen.withLock { seen in
                        seen.append(records.map(\.entry.status))
                        return seen.count == 1
                    }
                    if first {
                        // Blocks this thread until the event is committed on another connection.
                        let done = DispatchSemaphore(value: 0)
                        Task.detached {
                            _ = try? await store.applyEvent(user: "u1", key: "a", status: .dismissed, at: t + 30)
                            done.signal()
                        }
                        #expect(done.wait(timeout: .now() + 20) == .success)
                    }
                    return (LedgerProposal(insert: [HistoryEntry(key: "b", type: "ping", deliverAt: t + 60, status: .scheduled)],
                                           response: "{\"seen\": \(records.count)}"), 0)
                }
            }.value
            #expect(seen.withLock { $0 } == [[.scheduled], [.dismissed]])
            #expect(!commit.replayed)
            #expect(try await store.entries(user: "u1").map { "\($0.entry.key) \($0.entry.status)" } == ["a dismissed", "b scheduled"])
            await store.close()
        }
    }

    @Test func anEmptyUserIsRefused() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let error = await #expect(throws: StoreError.self) {
                try await store.commit(user: "", read: .all, requestKey: nil, now: 0) { _ in (LedgerProposal(response: "{}"), 0) }
            }
            #expect(error?.code == .missingUser)
            await store.close()
        }
    }
}
#endif
