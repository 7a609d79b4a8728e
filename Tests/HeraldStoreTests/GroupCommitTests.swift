import Dispatch
import Foundation
import HeraldEngine
@testable import HeraldSQLite
import HeraldStore
import Synchronization
import Testing

/// SQLite group commit: units waiting for the writer together run in one transaction, each in its
/// own savepoint, and are answered after its one commit.
///
/// Each test holds GRDB's writer queue with a job that waits on a semaphore, submits its units
/// (they queue behind it), waits until all of them are queued, then lets the writer go: the
/// units then run as one group, which `statistics` confirms.
@Suite struct GroupCommitTests {
    struct DecideFailure: Error, Equatable { var user: String }

    /// A counter tasks and the writer's thread share.
    final class Counter: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .sequentiallyConsistent) }
        var value: Int { count.load(ordering: .sequentiallyConsistent) }
    }

    func makeStore() throws -> SQLiteLedgerStore {
        try SQLiteLedgerStore(path: StoreFixtures.temporaryDirectory().appendingPathComponent("ledger.db").path)
    }

    /// Blocks the writer until the returned semaphore is signalled.
    func holdWriter(_ store: SQLiteLedgerStore) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        store.pool.asyncWriteWithoutTransaction { _ in release.wait() }
        return release
    }

    /// Waits (up to 30 s) until `count` units wait for the writer; false if they never do.
    func queued(_ store: SQLiteLedgerStore, _ count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while store.groupCommit.waiting < count {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    func count(_ store: SQLiteLedgerStore, _ sql: String) throws -> Int {
        Int(try SQLiteProbe.scalar(path: store.path, sql: sql) ?? "") ?? -1
    }

    @Test func unitsOneAfterAnotherRunAlone() async throws {
        let store = try makeStore()
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        for i in 0 ..< 5 {
            _ = try await recorder.decide(StoreFixtures.request(user: "u\(i)", id: "a", at: StoreFixtures.monday), idempotencyKey: "k")
        }
        #expect(store.groupCommit.statistics == .init(groups: 5, units: 5, largest: 1))
    }

    /// A decide error, a key conflict after a first insert, and an unknown key: each gets its own
    /// error and leaves nothing behind; the other units of the group commit.
    @Test func aFailingUnitDoesNotAffectTheOthersOfItsGroup() async throws {
        let store = try makeStore()
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        let at = StoreFixtures.monday
        let release = holdWriter(store)
        let entry = HistoryEntry(key: "dup", type: "ping", deliverAt: at, status: .scheduled)
        let failing: [(user: String, proposal: LedgerProposal?)] = [
            ("throws", nil),
            ("conflict", LedgerProposal(insert: [entry, entry], response: "{}")),
            ("unknown", LedgerProposal(insert: [HistoryEntry(key: "new", type: "ping", deliverAt: at, status: .scheduled)],
                                       update: [HistoryEntry(key: "absent", type: "ping", deliverAt: at, status: .scheduled)],
                                       response: "{}")),
        ]
        let outcomes = try await withThrowingTaskGroup(of: (String, Result<String, any Error>).self) { group in
            for i in 0 ..< 6 {
                group.addTask {
                    do {
                        let decision = try await recorder.decide(StoreFixtures.request(user: "good\(i)", id: "a", at: at),
                                                                 idempotencyKey: "k")
                        return ("good\(i)", .success(decision.response))
                    } catch {
                        return ("good\(i)", .failure(error))
                    }
                }
                if i < failing.count {
                    let (user, proposal) = failing[i]
                    group.addTask {
                        do {
                            let commit = try await store.commit(user: user, read: .all, requestKey: "k", now: at) { _ -> (LedgerProposal, Int) in
                                guard let proposal else { throw DecideFailure(user: user) }
                                return (proposal, 0)
                            }
                            return (user, .success(commit.response))
                        } catch {
                            return (user, .failure(error))
                        }
                    }
                }
            }
            let allQueued = await queued(store, 9)
            release.signal()
            #expect(allQueued)
            var outcomes: [String: Result<String, any Error>] = [:]
            for try await (user, result) in group { outcomes[user] = result }
            return outcomes
        }
        #expect(store.groupCommit.statistics == .init(groups: 1, units: 9, largest: 9))
        for i in 0 ..< 6 {
            #expect((try? outcomes["good\(i)"]?.get())?.isEmpty == false)
            #expect(try await store.entries(user: "good\(i)").map(\.entry.key) == ["ping:a"])
        }
        #expect(throws: DecideFailure(user: "throws")) { try outcomes["throws"]?.get() }
        #expect { try outcomes["conflict"]?.get() } throws: { ($0 as? StoreError)?.code == .keyConflict }
        #expect { try outcomes["unknown"]?.get() } throws: { ($0 as? StoreError)?.code == .unknownKey }
        // Rolled back to their savepoints: no entry, no stored response.
        #expect(try count(store, "SELECT count(*) FROM entry WHERE user IN ('throws', 'conflict', 'unknown')") == 0)
        #expect(try count(store, "SELECT count(*) FROM response WHERE user IN ('throws', 'conflict', 'unknown')") == 0)
        #expect(try count(store, "SELECT count(*) FROM response") == 6)
    }

    /// Two units of one user with one idempotency key in one group: as two transactions one after
    /// the other, the second replays the first's stored response and records nothing.
    @Test func theSameKeyTwiceInOneGroupReplays() async throws {
        let store = try makeStore()
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        let at = StoreFixtures.monday
        let release = holdWriter(store)
        let results = try await withThrowingTaskGroup(of: (String, RecordedDecision).self) { group in
            // Different ids, so a second decision (not a replay) would record a second entry.
            for (user, id, key) in [("u1", "a", "k1"), ("u1", "b", "k1"), ("u1", "c", "k2"), ("u2", "a", "k1")] {
                group.addTask {
                    (user + id, try await recorder.decide(StoreFixtures.request(user: user, id: id, at: at), idempotencyKey: key))
                }
            }
            let allQueued = await queued(store, 4)
            release.signal()
            #expect(allQueued)
            var results: [String: RecordedDecision] = [:]
            for try await (name, result) in group { results[name] = result }
            return results
        }
        #expect(store.groupCommit.statistics == .init(groups: 1, units: 4, largest: 4))
        let pair = [try #require(results["u1a"]), try #require(results["u1b"])]
        #expect(pair.filter(\.replayed).count == 1)
        #expect(pair[0].response == pair[1].response)
        let first = try #require(pair.first { !$0.replayed })
        let replay = try #require(pair.first { $0.replayed })
        #expect(first.recorded.count == 1)
        #expect(replay.recorded.isEmpty)
        #expect(results["u1c"]?.replayed == false && results["u2a"]?.replayed == false)
        let keys = try await store.entries(user: "u1").map(\.entry.key).sorted()
        #expect(keys.count == 2 && keys.contains("ping:c"))
        #expect(try count(store, "SELECT count(*) FROM response WHERE user = 'u1'") == 2)
    }

    /// A COMMIT that fails (here a deferred foreign key one unit's trigger breaks, which SQLite
    /// checks only at COMMIT): every unit of the group gets the error and nothing of it stays.
    @Test func aFailedCommitFailsTheWholeGroup() async throws {
        let store = try makeStore()
        for statement in [
            "CREATE TABLE probe_parent (id INTEGER PRIMARY KEY)",
            "CREATE TABLE probe_child (parent INTEGER REFERENCES probe_parent (id) DEFERRABLE INITIALLY DEFERRED)",
            "CREATE TRIGGER probe_poison AFTER INSERT ON entry WHEN NEW.user = 'poison' BEGIN INSERT INTO probe_child VALUES (42); END",
        ] {
            _ = try SQLiteProbe.scalar(path: store.path, sql: statement)
        }
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        let at = StoreFixtures.monday
        let users = ["u1", "u2", "poison", "u3"]
        let release = holdWriter(store)
        let errors = try await withThrowingTaskGroup(of: (any Error)?.self) { group in
            for user in users {
                group.addTask {
                    do {
                        _ = try await recorder.decide(StoreFixtures.request(user: user, id: "a", at: at), idempotencyKey: "k")
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            let allQueued = await queued(store, users.count)
            release.signal()
            #expect(allQueued)
            var errors: [(any Error)?] = []
            for try await error in group { errors.append(error) }
            return errors
        }
        #expect(store.groupCommit.statistics == .init(groups: 1, units: 4, largest: 4))
        #expect(errors.count == 4)
        for error in errors {
            let error = try #require(error as? StoreError)
            #expect(error.code == .databaseFailed && error.message.contains("FOREIGN KEY"))
        }
        #expect(try count(store, "SELECT count(*) FROM entry") == 0)
        #expect(try count(store, "SELECT count(*) FROM response") == 0)
        #expect(try count(store, "SELECT count(*) FROM probe_child") == 0)
        // The writer is clean afterwards: the next unit commits.
        #expect(try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: at), idempotencyKey: "k").replayed == false)
        #expect(try count(store, "SELECT count(*) FROM entry") == 1)
    }

    /// Held just before the group's COMMIT: no caller has its result yet and another connection
    /// sees none of the group's rows; released, every caller has its result and every row is there.
    @Test func resultsAreDeliveredOnlyAfterTheCommit() async throws {
        let store = try makeStore()
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        let at = StoreFixtures.monday
        let reached = Counter()
        let commit = DispatchSemaphore(value: 0)
        store.groupCommit.setBeforeCommit { _ in
            reached.add()
            commit.wait()
        }
        let answered = Counter()
        let release = holdWriter(store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0 ..< 5 {
                group.addTask {
                    _ = try await recorder.decide(StoreFixtures.request(user: "u\(i)", id: "a", at: at), idempotencyKey: "k")
                    answered.add()
                }
            }
            let allQueued = await queued(store, 5)
            release.signal()
            #expect(allQueued)
            let deadline = ContinuousClock.now + .seconds(30)
            while reached.value == 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(2))
            }
            #expect(reached.value == 1, "the group never reached its COMMIT")
            try? await Task.sleep(for: .milliseconds(50))  // a result handed out early would have arrived by now
            let early = answered.value
            let visible = try? count(store, "SELECT count(*) FROM entry")
            commit.signal()
            #expect(early == 0)
            #expect(visible == 0)
            try await group.waitForAll()
        }
        #expect(answered.value == 5)
        #expect(try count(store, "SELECT count(*) FROM entry") == 5)
        #expect(store.groupCommit.statistics == .init(groups: 1, units: 5, largest: 5))
    }

    /// The group is capped: 100 waiting units run as 64 and 36.
    @Test func aGroupHoldsAtMostSixtyFourUnits() async throws {
        let store = try makeStore()
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        let release = holdWriter(store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0 ..< 100 {
                group.addTask {
                    _ = try await recorder.decide(StoreFixtures.request(user: "u\(i)", id: "a", at: StoreFixtures.monday))
                }
            }
            let allQueued = await queued(store, 100)
            release.signal()
            #expect(allQueued)
            try await group.waitForAll()
        }
        #expect(store.groupCommit.statistics == .init(groups: 2, units: 100, largest: 64))
        #expect(try count(store, "SELECT count(*) FROM entry") == 100)
    }

    /// A task cancelled while its unit waits for the writer gets `CancellationError`, and nothing
    /// of it is written; the unit queued beside it commits.
    @Test func aUnitCancelledWhileWaitingWritesNothing() async throws {
        let store = try makeStore()
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 10)), store: store)
        let release = holdWriter(store)
        let cancelled = Task { try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: StoreFixtures.monday)) }
        let kept = Task { try await recorder.decide(StoreFixtures.request(user: "u2", id: "a", at: StoreFixtures.monday)) }
        let allQueued = await queued(store, 2)
        cancelled.cancel()
        release.signal()
        #expect(allQueued)
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(try await kept.value.recorded.count == 1)
        #expect(try await store.entries(user: "u1").isEmpty)
    }
}
