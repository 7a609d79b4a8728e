internal import HeraldContract
public import HeraldEngine
public import HeraldStore
import GRDB
import Synchronization

/// The embedded `LedgerStore`: one SQLite file in WAL mode, through GRDB (on a server, or inside
/// an app that plans its own local notifications; no NIO).
///
/// Each unit of work is one `BEGIN IMMEDIATE` transaction: SQLite's single writer lock taken
/// before the first read, so the read-decide-write of one user (of every user: SQLite has one
/// writer) never interleaves with another, in this process or any other sharing the file.
/// Readers (`entries`) run beside the writer on the pool's reader connections.
///
/// Durability: WAL with `synchronous = NORMAL` (the default `Durability.process`): a
/// committed unit survives the process being killed; after a power loss the last units may be
/// lost but the file is never corrupt. `Durability.power` (`synchronous = FULL`) syncs each commit.
public final class SQLiteLedgerStore: LedgerStore {
    /// How far a committed unit of work is guaranteed to survive.
    public enum Durability: Sendable {
        /// A crash of the process: `synchronous = NORMAL` (the default).
        case process
        /// A power loss: `synchronous = FULL` (an fsync per commit).
        case power
    }

    let pool: DatabasePool
    /// Checkpoints the log beside the writer.
    let checkpointer: SQLiteCheckpointer
    /// Admits one unit at a time to the writer (see `writeUnit`).
    let gate = SQLiteWriterGate()
    /// How long a unit waits for another process's write lock, in milliseconds.
    let busyTimeoutMilliseconds: Int
    /// The file, for messages.
    public let path: String

    /// Opens (creating if needed) and migrates the ledger at `path`.
    /// - Parameters:
    ///   - path: the database file.
    ///   - durability: see `Durability`.
    ///   - busyTimeout: how long a unit waits for another process's write lock, in seconds.
    /// - Throws: `StoreError`: `corruptDatabase` (not a database, or damaged), `schemaTooNew`
    ///   (written by a newer Herald), `databaseFailed` (permissions, a full disk…). A file this
    ///   process may not write is refused here: SQLite would open it read-only, and such a
    ///   connection stays read-only after the permissions are fixed.
    public init(path: String, durability: Durability = .process, busyTimeout: Double = 10) throws {
        self.path = path
        busyTimeoutMilliseconds = Int((max(0, busyTimeout) * 1_000).rounded(.up))
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.label = "herald-ledger"
        let synchronous = durability == .power ? "FULL" : "NORMAL"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            if !db.configuration.readonly {
                // The writer: its page cache keeps the pages units keep touching (the indexes'
                // upper levels, the tables' last pages) instead of reading them again from the
                // file (SQLite's default cache is 2 MiB).
                try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)")
                // No automatic checkpoint in the writer: `SQLiteCheckpointer` runs them beside it.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            }
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            // A damaged file can open fine and fail on its first page read: check it now.
            try pool.read { db in _ = try Row.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
            try SQLiteSchema.migrate(pool, path: path)
            try pool.write { db in try Self.probeWrite(db) }
            checkpointer = try SQLiteCheckpointer(path: path, configuration: config)
            // The writer never sleeps in SQLite's busy handler on its caller's thread: a unit
            // that finds another process's write lock waits for it on GRDB's queue (`writeUnit`).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA busy_timeout = 0") }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// A row written and deleted again: fails on a file SQLite opened read-only.
    private static func probeWrite(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO response (user, request_key, body, recorded_at) VALUES ('', 'herald-write-probe', '', 0)")
        try db.execute(sql: "DELETE FROM response WHERE user = '' AND request_key = 'herald-write-probe'")
    }

    /// Writes a row and deletes it again, committed through the writer with the units beside
    /// it: throws unless the store can record now (`herald serve`'s `/readyz`: a full disk,
    /// another process holding the write lock past the busy timeout). A rolled-back write
    /// would not do: it never reaches the disk, so a full one goes unseen.
    public func checkWritable() async throws {
        do {
            try await writeUnit { db in try Self.probeWrite(db) }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// How many write transactions the store has run, how many units of work they carried (more
    /// units than transactions: group commit) and how many units wait for the writer now (for
    /// benchmarks, diagnostics and tests).
    public var writerCounts: (transactions: Int, units: Int, waiting: Int) {
        let counts = gate.counts
        return (counts.batches, counts.units, counts.waiting)
    }

    /// How many checkpoints ran beside the writer (and how many of those caught up with a log
    /// grown too long) and how many the writer ran itself to start the log again
    /// (`SQLiteCheckpointer`; for diagnostics and tests).
    public var checkpointCounts: (background: Int, catchUp: Int, byWriter: Int) {
        checkpointer.counts
    }

    /// The writer connection's page cache, in KiB.
    static let writerCacheKiB = 16_384

    /// Closes the pool's connections; the last one checkpoints the WAL into the file and removes
    /// it. Called once nothing uses the store (`herald serve` after draining its requests). A close
    /// that fails (a statement still alive) loses nothing: the WAL stays and the next open recovers it.
    /// Closes the readers, then the writer: the last connection to close checkpoints the log
    /// into the file and removes `-wal` and `-shm`. (GRDB's `close()` alone closes the writer
    /// first, and read-only connections closing last leave both files behind.)
    public func close() async {
        checkpointer.close()
        pool.invalidateReadOnlyConnections()
        try? pool.close()
    }

    // MARK: The unit of work

    public func commit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value> {
        guard !user.isEmpty else { throw StoreError.missingUser }
        let path = self.path
        do {
            // Through the writer gate (`writeUnit`): a task waiting for the writer, or for another
            // process's write lock (up to the busy timeout), suspends and never blocks a thread of
            // the cooperative pool, which a server shares with its request handlers. The body is
            // the whole unit; the gate runs it inside a transaction (its own, or a savepoint of a
            // group commit) and hands back its value once that is committed.
            return try await withoutActuallyEscaping(decide) { decide in
                try await writeUnit { db in
                    if let requestKey, let body = try String.fetchOne(
                        db.cachedStatement(sql: "SELECT body FROM response WHERE user = ? AND request_key = ?"),
                        arguments: [user, requestKey])
                    {
                        return LedgerCommit(response: body, replayed: true, value: nil, inserted: [])
                    }
                    let snapshot = try Self.entries(db, user: user, read: read)
                    let (proposal, value) = try Self.resolveAndApply(db, user: user, snapshot: snapshot, now: now, decide: decide)
                    if let requestKey {
                        try db.cachedStatement(sql: "INSERT INTO response (user, request_key, body, recorded_at) VALUES (?, ?, ?, ?)")
                            .execute(arguments: [user, requestKey, proposal.response, now])
                    }
                    return LedgerCommit(response: proposal.response, replayed: false, value: value, inserted: proposal.insert)
                }
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// The unit's proposals (`UnitOfWork`) applied, with the key lookup left to the unique index
    /// when a proposal inserts one entry and changes nothing else (a decision's usual proposal):
    /// the entry is inserted at once, and only if a live entry outside the snapshot already holds
    /// its key (the `INSERT` fails, leaving nothing: SQLite undoes a failed statement) are the
    /// colliding entries read and the decision asked again. Any other proposal looks its keys up
    /// first. Saves a statement per unit.
    static func resolveAndApply<Value>(
        _ db: Database, user: String, snapshot: [LedgerRecord], now: Int,
        decide: ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) throws -> (LedgerProposal, Value) {
        var unit = UnitOfWork<Value>(snapshot: snapshot)
        while true {
            let proposal = try unit.propose(decide)
            let unseen = unit.unseenKeys
            if unseen.count == 1, proposal.insert.count == 1, proposal.update.isEmpty, proposal.cancel.isEmpty,
               try insertUnlessLive(proposal.insert[0], db: db, user: user, now: now)
            {
                return unit.result
            }
            let colliding = unseen.isEmpty ? [] : try liveEntries(db, user: user, keys: unseen)
            if colliding.isEmpty {
                try apply(proposal, db: db, user: user, now: now)
                return unit.result
            }
            unit.add(colliding)
        }
    }

    /// Inserts `entry`; false (nothing inserted) when a constraint refuses it, which for an entry
    /// the engine built is the live key's unique index.
    static func insertUnlessLive(_ entry: HistoryEntry, db: Database, user: String, now: Int) throws -> Bool {
        do {
            try db.cachedStatement(sql: insertSQL).execute(arguments: [
                user, entry.key, entry.type, entry.subject, entry.channel, entry.deliverAt,
                entry.status.rawValue, entry.batchKey, now, now,
            ])
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
    }

    static let insertSQL = """
        INSERT INTO entry (user, key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func apply(_ proposal: LedgerProposal, db: Database, user: String, now: Int) throws {
        for key in proposal.cancel {
            let statement = try db.cachedStatement(sql: """
                UPDATE entry SET status = 'cancelled', updated_at = ? WHERE user = ? AND key = ? AND status <> 'cancelled'
                """)
            try statement.execute(arguments: [now, user, key])
            if db.changesCount == 0 { throw StoreError.unknownKey(user: user, key: key) }
        }
        for entry in proposal.update {
            let statement = try db.cachedStatement(sql: """
                UPDATE entry SET type = ?, subject = ?, channel = ?, deliver_at = ?, status = ?, batch_key = ?, updated_at = ?
                WHERE user = ? AND key = ? AND status <> 'cancelled'
                """)
            try statement.execute(arguments: [entry.type, entry.subject, entry.channel, entry.deliverAt, entry.status.rawValue,
                                              entry.batchKey, now, user, entry.key])
            if db.changesCount == 0 { throw StoreError.unknownKey(user: user, key: entry.key) }
        }
        let insert = try db.cachedStatement(sql: insertSQL)
        for entry in proposal.insert {
            do {
                try insert.execute(arguments: [user, entry.key, entry.type, entry.subject, entry.channel, entry.deliverAt,
                                               entry.status.rawValue, entry.batchKey, now, now])
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw StoreError(.keyConflict, "user `\(user)` already has a live entry with key `\(entry.key)`")
            }
        }
    }

    // MARK: Events, listing, deletion

    public func applyEvent(user: String, key: String, status: HistoryEntry.Status, at: Int) async throws -> LedgerRecord {
        let path = self.path
        do {
            return try await writeUnit { db in
                guard let id = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT id FROM entry WHERE user = ? AND key = ? AND status <> 'cancelled'"),
                    arguments: [user, key])
                else { throw StoreError.unknownKey(user: user, key: key) }
                try db.cachedStatement(sql: "UPDATE entry SET status = ?, updated_at = ? WHERE id = ?")
                    .execute(arguments: [status.rawValue, at, id])
                guard let record = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.columns) FROM entry WHERE id = ?"), arguments: [id])
                    .map(Self.record)
                else { throw StoreError.unknownKey(user: user, key: key) }
                return record
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    public func entries(user: String) async throws -> [LedgerRecord] {
        let path = self.path
        do {
            return try await pool.read { db in try Self.entries(db, user: user, read: .all) }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    public func forget(user: String) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM response WHERE user = ?", arguments: [user])
            try db.execute(sql: "DELETE FROM entry WHERE user = ?", arguments: [user])
            return db.changesCount
        }
    }

    public func prune(before cutoff: Int, keepTypes: Set<String>) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM response WHERE recorded_at < ?", arguments: [cutoff])
            var arguments: StatementArguments = [cutoff]
            var sql = "DELETE FROM entry WHERE deliver_at < ?"
            if !keepTypes.isEmpty {
                sql += " AND type NOT IN (" + Array(repeating: "?", count: keepTypes.count).joined(separator: ", ") + ")"
                arguments += StatementArguments(keepTypes.sorted())
            }
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }

    /// Runs `body`, a whole unit of work, on the writer connection inside a transaction, and
    /// returns its value once that transaction is committed (docs/store.md § SQLite).
    ///
    /// Through the gate (`SQLiteWriterGate`): a unit that finds the writer free runs at once, on
    /// its caller's thread (GRDB's synchronous write, which finds the writer's queue idle and runs
    /// inline: no hop to the writer's queue and back), together with every unit that was waiting
    /// for the writer then — group commit, one transaction with a savepoint per unit. A unit that
    /// finds the writer busy suspends, never blocking a thread. The writer's busy timeout is 0,
    /// so a leader never sleeps on its caller's thread in SQLite's busy handler: when another
    /// process holds the write lock, `BEGIN IMMEDIATE` fails at once with `SQLITE_BUSY` before
    /// anything ran, and the batch runs again on GRDB's writer queue, awaited, with the busy
    /// timeout. A unit's `body` is reads, a pure decision and writes, so running it again (after
    /// a rollback) is the same as running it once.
    func writeUnit<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let value = Mutex<T?>(nil)
        let job = SQLiteWriterGate.Job { db in
            let result = try body(db)
            value.withLock { $0 = result }
        }
        await gate.submit(job) { batch in await self.run(batch) }
        job.finish()
        if let error = job.error { throw error }
        guard let result = value.withLock({ $0.take() }) else {
            throw StoreError(.databaseFailed, "SQLite on `\(path)`: a unit of work ended without a result")
        }
        return result
    }

    /// Runs `batch` in one transaction (again, for the units a transaction SQLite rolled back by
    /// itself carried), on this thread; on GRDB's queue with the busy timeout when another
    /// process holds the write lock.
    private func run(_ batch: [SQLiteWriterGate.Job]) async {
        var pending = batch
        var waitForLock = false
        while !pending.isEmpty {
            let jobs = pending
            let checkpointer = self.checkpointer
            do {
                if waitForLock {
                    let timeout = busyTimeoutMilliseconds
                    pending = try await pool.writeWithoutTransaction { db in
                        try db.execute(sql: "PRAGMA busy_timeout = \(timeout)")
                        defer { try? db.execute(sql: "PRAGMA busy_timeout = 0") }
                        return try Self.transaction(db, jobs, checkpointer: checkpointer)
                    }
                } else {
                    pending = try Self.writeInline(pool) { db in try Self.transaction(db, jobs, checkpointer: checkpointer) }
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && !waitForLock {
                waitForLock = true
            } catch {
                for job in jobs { job.error = error }
                pending = []
            }
        }
    }

    /// One `BEGIN IMMEDIATE` transaction running `jobs` in order, each in a savepoint of its own
    /// when there are several: a job that throws is rolled back to its savepoint alone and keeps
    /// its error. A failed `COMMIT` rolls everything back and is every job's error. Returns the
    /// jobs to run again in a new transaction: those SQLite rolled back with the whole
    /// transaction when a job's error ended it (an I/O error, a full disk).
    /// - Throws: only when the transaction cannot begin (`SQLITE_BUSY`: another process writes);
    ///   no job ran then.
    static func transaction(_ db: Database, _ jobs: [SQLiteWriterGate.Job]) throws -> [SQLiteWriterGate.Job] {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        var done: [SQLiteWriterGate.Job] = []
        if jobs.count == 1 {
            let job = jobs[0]
            job.error = nil
            do {
                try job.run(db)
                done.append(job)
            } catch {
                job.error = error
                try? db.rollback()
                return []
            }
        } else {
            for (index, job) in jobs.enumerated() {
                job.error = nil
                do {
                    try db.cachedStatement(sql: "SAVEPOINT herald_unit").execute()
                    try job.run(db)
                    try db.cachedStatement(sql: "RELEASE herald_unit").execute()
                    done.append(job)
                } catch {
                    job.error = error
                    guard db.isInsideTransaction else {
                        return done + jobs[(index + 1)...]
                    }
                    try? db.cachedStatement(sql: "ROLLBACK TO herald_unit").execute()
                    try? db.cachedStatement(sql: "RELEASE herald_unit").execute()
                }
            }
        }
        do {
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            try? db.rollback()
            for job in done { job.error = error }
        }
        return []
    }

    /// `transaction`, then the count the checkpointer keeps, and the writer's own checkpoint when
    /// the log outgrew the background ones (`SQLiteCheckpointer`): now, while no unit writes.
    /// A failed checkpoint loses nothing; the next one copies what it did not.
    static func transaction(
        _ db: Database, _ jobs: [SQLiteWriterGate.Job], checkpointer: SQLiteCheckpointer
    ) throws -> [SQLiteWriterGate.Job] {
        let again = try transaction(db, jobs)
        if checkpointer.committed(jobs.count - again.count) {
            _ = try? Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
        return again
    }

    /// GRDB's synchronous write (a synchronous function, so that the overload is chosen).
    private static func writeInline<T>(_ pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(body)
    }

    /// One unit of plain statements.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let path = self.path
        do {
            return try await writeUnit(body)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    // MARK: Rows

    /// The columns `record` reads, in its order.
    static let columns = "key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at"

    /// The user's entries `read` selects, by delivery instant then recording order.
    static func entries(_ db: Database, user: String, read: LedgerRead) throws -> [LedgerRecord] {
        guard let since = read.since else {
            return try records(db.cachedStatement(sql: "SELECT \(columns) FROM entry WHERE user = ? ORDER BY deliver_at, id"),
                               arguments: [user])
        }
        var records = try records(
            db.cachedStatement(sql: "SELECT \(columns) FROM entry WHERE user = ? AND deliver_at >= ? ORDER BY deliver_at, id"),
            arguments: [user, since])
        if !read.lifetimeTypes.isEmpty {
            let older = try Self.records(
                db.cachedStatement(sql: "SELECT \(columns) FROM entry WHERE user = ? AND deliver_at < ? ORDER BY deliver_at, id"),
                arguments: [user, since]).filter { read.lifetimeTypes.contains($0.entry.type) }
            records = older + records
        }
        return records
    }

    static func liveEntries(_ db: Database, user: String, keys: [String]) throws -> [LedgerRecord] {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM entry WHERE user = ? AND key = ? AND status <> 'cancelled'")
        return try keys.flatMap { key in try records(statement, arguments: [user, key]) }
    }

    /// The rows of a `SELECT \(columns)` statement, read by position (GRDB's lookup by column
    /// name costs more than the rest of the row).
    static func records(_ statement: Statement, arguments: StatementArguments) throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try cursor.next() {
            records.append(record(row))
        }
        return records
    }

    /// A row of `SELECT \(columns)`.
    static func record(_ row: Row) -> LedgerRecord {
        let status = HistoryEntry.Status(rawValue: row[5]) ?? .scheduled  // the CHECK constraint admits no other
        let entry = HistoryEntry(key: row[0], type: row[1], subject: row[2], channel: row[3],
                                 deliverAt: row[4], status: status, batchKey: row[6])
        return LedgerRecord(entry: entry, recordedAt: row[7], updatedAt: row[8])
    }

    /// A GRDB or SQLite error as a `StoreError` naming the cause (a `StoreError` or a request
    /// error thrown by a unit of work passes through).
    static func storeError(_ error: any Error, path: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StoreError(.corruptDatabase, "`\(path)` is not a Herald SQLite database or is damaged (\(error.message ?? "SQLite error \(error.resultCode.rawValue)")): restore it from a backup or move it aside")
        default:
            return StoreError(.databaseFailed, "SQLite failed on `\(path)`: \(error.message ?? "error \(error.resultCode.rawValue)")")
        }
    }
}
