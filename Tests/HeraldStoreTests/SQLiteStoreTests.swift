import Foundation
import HeraldContract
import HeraldEngine
import HeraldSQLite
import HeraldStore
import HeraldTestSupport
import Synchronization
import Testing

/// The SQLite file: migrations, a newer schema, a damaged file.
@Suite struct SQLiteStoreTests {
    func temporaryFile() -> String {
        StoreFixtures.temporaryDirectory().appendingPathComponent("ledger.db").path
    }

    @Test func migratesAnEmptyFileAndReopensWithoutChange() async throws {
        let path = temporaryFile()
        let engine = try StoreFixtures.engine(StoreFixtures.bundle(cap: 3))
        do {
            let recorder = DecisionRecorder(engine: engine, store: try SQLiteLedgerStore(path: path))
            _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "a", at: StoreFixtures.monday), idempotencyKey: "k")
        }
        // Reopened (another process would do the same): the migration is not run twice, rows are kept.
        let reopened = DecisionRecorder(engine: engine, store: try SQLiteLedgerStore(path: path))
        #expect(try await reopened.ledger(user: "u1").map(\.entry.key) == ["ping:a"])
        #expect(try await reopened.decide(StoreFixtures.request(user: "u1", id: "b", at: StoreFixtures.monday), idempotencyKey: "k").replayed)
        #expect(try sqlite(path, "SELECT group_concat(identifier, ',') FROM (SELECT identifier FROM grdb_migrations ORDER BY rowid)")
            == "v1-ledger,v2-response-rowid")
        #expect(try sqlite(path, "PRAGMA journal_mode") == "wal")
    }

    /// A file written by a Herald that knew only `v1-ledger` (responses in a `WITHOUT ROWID`
    /// table): `v2-response-rowid` moves them, and a retry still gets the stored bytes.
    @Test func migratesAVersion1FileKeepingItsRowsAndResponses() async throws {
        let path = temporaryFile()
        let at = StoreFixtures.monday
        for statement in [
            "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "INSERT INTO grdb_migrations VALUES ('v1-ledger')",
            """
            CREATE TABLE entry (id INTEGER PRIMARY KEY, user TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL,
                subject TEXT, channel TEXT, deliver_at INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('scheduled', 'delivered', 'opened', 'dismissed', 'cancelled')),
                batch_key TEXT, recorded_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)
            """,
            "CREATE UNIQUE INDEX entry_live_key ON entry (user, key) WHERE status <> 'cancelled'",
            "CREATE INDEX entry_user_deliver ON entry (user, deliver_at)",
            "CREATE INDEX entry_deliver ON entry (deliver_at)",
            """
            CREATE TABLE response (user TEXT NOT NULL, request_key TEXT NOT NULL, body TEXT NOT NULL,
                recorded_at INTEGER NOT NULL, PRIMARY KEY (user, request_key)) WITHOUT ROWID
            """,
            "CREATE INDEX response_recorded ON response (recorded_at)",
            "INSERT INTO entry VALUES (1, 'u1', 'ping:a', 'ping', NULL, 'push', \(at), 'scheduled', NULL, \(at), \(at))",
            "INSERT INTO response VALUES ('u1', 'k', '{\"stored\":\"by v1\"}', \(at))",
        ] {
            _ = try sqlite(path, statement)
        }
        let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 3)),
                                        store: try SQLiteLedgerStore(path: path))
        let retry = try await recorder.decide(StoreFixtures.request(user: "u1", id: "b", at: at), idempotencyKey: "k")
        #expect(retry.replayed && retry.response == "{\"stored\":\"by v1\"}")
        #expect(try await recorder.ledger(user: "u1").map(\.entry.key) == ["ping:a"])
        #expect(try sqlite(path, "SELECT group_concat(identifier, ',') FROM (SELECT identifier FROM grdb_migrations ORDER BY rowid)")
            == "v1-ledger,v2-response-rowid")
        // A new response goes to the new table; its key is still unique per user.
        _ = try await recorder.decide(StoreFixtures.request(user: "u1", id: "c", at: at), idempotencyKey: "k2")
        #expect(try sqlite(path, "SELECT CAST(count(*) AS TEXT) FROM response") == "2")
        #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
    }

    @Test func refusesASchemaWrittenByANewerHerald() async throws {
        let path = temporaryFile()
        _ = try SQLiteLedgerStore(path: path)
        _ = try sqlite(path, "INSERT INTO grdb_migrations (identifier) VALUES ('v2-from-the-future')")
        #expect {
            _ = try SQLiteLedgerStore(path: path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .schemaTooNew && error.message.contains("v2-from-the-future") && error.message.contains(path)
        }
    }

    @Test func aFileThatIsNotADatabaseIsAClearError() throws {
        let path = temporaryFile()
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteLedgerStore(path: path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .corruptDatabase && error.message.contains(path)
        }
    }

    @Test func aDamagedDatabaseIsAClearError() async throws {
        let path = temporaryFile()
        do {
            let recorder = DecisionRecorder(engine: try StoreFixtures.engine(StoreFixtures.bundle(cap: 1000)),
                                            store: try SQLiteLedgerStore(path: path))
            for i in 0 ..< 300 {
                _ = try await recorder.decide(StoreFixtures.request(user: "u\(i)", id: "a", at: StoreFixtures.monday))
            }
        }
        _ = try sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        // Overwrite the pages after the first with garbage; the header stays valid.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 4))
        try handle.close()
        await #expect {
            let store = try SQLiteLedgerStore(path: path)
            _ = try await store.entries(user: "u1")
        } throws: { error in
            (error as? StoreError)?.code == .corruptDatabase
        }
    }

    /// Closing the store leaves only the database file: the log has been checkpointed into it
    /// and `-wal` and `-shm` are gone; the entries are in the file.
    @Test func closingCheckpointsAndRemovesTheLog() async throws {
        let path = temporaryFile()
        let engine = try StoreFixtures.engine(StoreFixtures.bundle(cap: 3))
        let store = try SQLiteLedgerStore(path: path)
        _ = try await DecisionRecorder(engine: engine, store: store)
            .decide(StoreFixtures.request(user: "u1", id: "a", at: StoreFixtures.monday), idempotencyKey: "k")
        _ = try await store.entries(user: "u1")  // a reader is open too
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        await store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try sqlite(path, "SELECT group_concat(key) FROM entry") == "ping:a")
    }

    /// Another connection to the file (another process's would be the same) holds SQLite's write
    /// lock: a unit of this store does not fail at once (its writer's own busy timeout is 0, so
    /// that it never sleeps on its caller's thread) but waits up to its busy timeout, and one whose
    /// timeout runs out fails with a clear error and records nothing.
    @Test func aUnitWaitsForAnotherConnectionsWriteLock() async throws {
        let path = temporaryFile()
        let holder = try SQLiteLedgerStore(path: path)
        let patient = try SQLiteLedgerStore(path: path, busyTimeout: 60)
        let impatient = try SQLiteLedgerStore(path: path, busyTimeout: 0.05)
        let inside = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        // The holder's unit runs on a thread of its own: it blocks its thread while it holds the
        // lock, and on Swift's cooperative pool (two threads here, shared with the suites running
        // beside this one) that could starve the rest of this test until the holder gave up.
        let holding = Task(executorPreference: OwnThreadExecutor.shared) {
            try await holder.commit(user: "u1", read: .all, requestKey: nil, now: StoreFixtures.monday) { _ in
                inside.store(true, ordering: .sequentiallyConsistent)
                // The write lock is held until the test releases it (at most three minutes).
                for _ in 0 ..< 180_000 where !release.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
                return (LedgerProposal(insert: [HistoryEntry(key: "held", type: "ping", deliverAt: StoreFixtures.monday, status: .scheduled)],
                                       response: "held"), ())
            }
        }
        while !inside.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(2)) }
        @Sendable func unit(_ key: String) -> @Sendable ([LedgerRecord]) throws -> (LedgerProposal, [String]) {
            { records in
                (LedgerProposal(insert: [HistoryEntry(key: key, type: "ping", deliverAt: StoreFixtures.monday + 60, status: .scheduled)],
                                response: key), records.map(\.entry.key))
            }
        }
        await #expect {
            _ = try await impatient.commit(user: "u1", read: .all, requestKey: "r1", now: StoreFixtures.monday, decide: unit("late"))
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .databaseFailed && error.message.contains(path) && error.message.contains("locked")
        }
        let finished = Atomic<Bool>(false)
        let waiting = Task {
            defer { finished.store(true, ordering: .sequentiallyConsistent) }
            return try await patient.commit(user: "u1", read: .all, requestKey: "r2", now: StoreFixtures.monday, decide: unit("waited"))
        }
        try await Task.sleep(for: .milliseconds(200))
        // Still waiting for the lock (a unit that failed at `SQLITE_BUSY` would have finished).
        let stillWaiting = !finished.load(ordering: .sequentiallyConsistent)
        #expect(stillWaiting)
        release.store(true, ordering: .sequentiallyConsistent)
        _ = try await holding.value
        let waited = try await waiting.value
        // The waiting unit read the holder's committed entry: it ran after the lock was released.
        #expect(waited.value == ["held"])
        #expect(try await patient.entries(user: "u1").map(\.entry.key) == ["held", "waited"])
        #expect(try sqlite(path, "SELECT group_concat(request_key) FROM response") == "r2")
    }

    /// Group commit: the units that wait while the writer is busy run in one transaction, each in
    /// a savepoint; one that fails is rolled back alone, and the others are committed.
    @Test func unitsThatWaitForTheWriterShareATransactionAndAFailedOneIsRolledBackAlone() async throws {
        struct Refused: Error {}
        let path = temporaryFile()
        let store = try SQLiteLedgerStore(path: path)
        let t = StoreFixtures.monday
        let inside = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        // The first unit holds the writer (on a thread of its own, as above) while three queue.
        let holding = Task(executorPreference: OwnThreadExecutor.shared) {
            try await store.commit(user: "u1", read: .all, requestKey: "r0", now: t) { _ in
                inside.store(true, ordering: .sequentiallyConsistent)
                for _ in 0 ..< 180_000 where !release.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
                return (LedgerProposal(insert: [HistoryEntry(key: "k0", type: "ping", deliverAt: t, status: .scheduled)],
                                       response: "r0"), [String]())
            }
        }
        while !inside.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(2)) }
        @Sendable func unit(_ key: String, refuse: Bool = false) -> @Sendable ([LedgerRecord]) throws -> (LedgerProposal, [String]) {
            { records in
                if refuse { throw Refused() }
                return (LedgerProposal(insert: [HistoryEntry(key: key, type: "ping", deliverAt: t + 60, status: .scheduled)],
                                       response: key), records.map(\.entry.key))
            }
        }
        let first = Task { try await store.commit(user: "u1", read: .all, requestKey: "r1", now: t, decide: unit("k1")) }
        while store.writerCounts.waiting < 1 { try await Task.sleep(for: .milliseconds(2)) }
        let refused = Task { try await store.commit(user: "u1", read: .all, requestKey: "r2", now: t, decide: unit("k2", refuse: true)) }
        while store.writerCounts.waiting < 2 { try await Task.sleep(for: .milliseconds(2)) }
        let last = Task { try await store.commit(user: "u1", read: .all, requestKey: "r3", now: t, decide: unit("k3")) }
        while store.writerCounts.waiting < 3 { try await Task.sleep(for: .milliseconds(2)) }
        release.store(true, ordering: .sequentiallyConsistent)
        _ = try await holding.value
        // Each unit saw what the units before it in the transaction wrote.
        #expect(try await first.value.value == ["k0"])
        await #expect(throws: Refused.self) { try await refused.value }
        #expect(try await last.value.value == ["k0", "k1"])
        let counts = store.writerCounts
        #expect(counts.transactions == 2 && counts.units == 4 && counts.waiting == 0, "\(counts)")
        #expect(try await store.entries(user: "u1").map(\.entry.key) == ["k0", "k1", "k3"])
        #expect(try sqlite(path, "SELECT group_concat(request_key) FROM (SELECT request_key FROM response ORDER BY id)") == "r0,r1,r3")
        // A retry of the refused request decides afresh: nothing of it was kept.
        let retried = try await store.commit(user: "u1", read: .all, requestKey: "r2", now: t, decide: unit("k2"))
        #expect(!retried.replayed)
    }

    /// Checkpoints run beside the writer, and the log stays bounded under steady writing: when
    /// it outgrows the background checkpoints (4,000 pages), checkpoints beside the writer catch
    /// up with it, then the writer copies the few pages left itself and the log starts again
    /// from its beginning.
    @Test func theLogIsCheckpointedBesideTheWriterAndStaysBounded() async throws {
        let path = temporaryFile()
        let store = try SQLiteLedgerStore(path: path)
        let t = StoreFixtures.monday
        // 16 KiB responses: four log pages a unit at least, so 4,800 units write ~20,000 pages
        // (without the writer's turn the log reached 120 MB alone, more beside other suites).
        let body = String(repeating: "x", count: 16 * 1024)
        let done = Atomic<Bool>(false)
        // The log's size, sampled while the units run.
        let sampler = Task {
            var largest = 0
            while !done.load(ordering: .sequentiallyConsistent) {
                largest = max(largest, Self.fileSize(path + "-wal"))
                try? await Task.sleep(for: .milliseconds(5))
            }
            return largest
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0 ..< 16 {
                group.addTask {
                    for i in stride(from: task, to: 4_800, by: 16) {
                        _ = try await store.commit(user: "u\(i % 50)", read: LedgerRead(since: t), requestKey: "r\(i)", now: t) { _ in
                            (LedgerProposal(insert: [HistoryEntry(key: "k\(i)", type: "ping", deliverAt: t, status: .scheduled)],
                                            response: body), 0)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        done.store(true, ordering: .sequentiallyConsistent)
        var largest = await sampler.value
        largest = max(largest, Self.fileSize(path + "-wal"))
        let counts = store.checkpointCounts
        #expect(counts.background > 0, "\(counts)")
        #expect(counts.byWriter > 0, "\(counts)")
        // Each of the writer's own checkpoints comes after at least one catch-up round beside it:
        // here a unit writes four pages or more, so the checkpoint that finds the log past the
        // limit finds hundreds of pages new since the one before, more than `catchUpPages`.
        #expect(counts.catchUp >= counts.byWriter, "\(counts)")
        // The log restarted: far under what the units wrote. The bound is 4,000 pages (16 MB)
        // plus what the writer appends while a background checkpoint runs. The writer learns the
        // log's size only from those checkpoints, so a checkpoint thread starved of CPU lets the
        // log grow meanwhile: beside the whole release suite on two cores it reached 77.5 MB
        // (docs/store.md § SQLite, a known limit). Alone it stays under the bound.
        withKnownIssue("the log's peak is not bounded while the checkpoint thread is starved", isIntermittent: true) {
            #expect(largest < 64 * 1024 * 1024, "largest log: \(largest) bytes")
        }
        #expect(try await store.entries(user: "u0").count == 96)
        await store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Runs one statement with the `sqlite3` shell-free C API through GRDB's own file (a second
    /// connection, as another process would).
    func sqlite(_ path: String, _ sql: String) throws -> String? {
        try SQLiteProbe.scalar(path: path, sql: sql)
    }
}
