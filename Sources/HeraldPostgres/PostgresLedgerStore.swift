#if Server
internal import HeraldContract
public import HeraldEngine
public import HeraldStore
public import Logging
internal import PostgresNIO

/// The `LedgerStore` for many Herald instances sharing one ledger: PostgreSQL through
/// PostgresNIO (docs/store.md § PostgreSQL).
///
/// A unit of work is two statements when no other unit writes for the same user meanwhile (the
/// usual case): `herald_unit_read` (a server-side function) answers a replay or returns the
/// window the policy reads with the user's `version`, a number every change to the user's
/// ledger replaces with a new one from a sequence; Herald decides; `herald_unit_write` locks the
/// user's row in `herald_users` with `SELECT … FOR UPDATE`, compares the version, checks the
/// keys the decision inserts and writes it; a `SELECT 1` after a write that wrote waits for its
/// commit (which the protocol does after the write's answer). Each statement is its own transaction. When the
/// version changed (another unit, an event or `forget` committed for the user in between), the
/// write writes nothing and the unit runs again inside `BEGIN`/`COMMIT`, taking the row lock in
/// its read, so it cannot be refused again. A row lock, not an advisory lock, so it works on
/// PostgreSQL-compatible databases sharded by user id (Citus), and two units for one user — in
/// this process or any other — never interleave, while units for different users run in
/// parallel. The transactions are `READ COMMITTED`.
///
/// A unit that fails with a serialization failure (`40001`) or a deadlock (`40P01`) is rolled
/// back and run again, up to `Options.attempts` times. A connection lost before `COMMIT` (or the
/// write, when it is its own transaction) was sent is rolled back by the server; the unit runs again on a new connection, up to
/// `Options.reconnects` times. A connection lost while committing (or writing) leaves the outcome unknown:
/// a unit with an idempotency key runs again too (it waits for the user's lock, then finds its
/// stored response if the lost commit happened: never lost, never doubled); one without is
/// reported (`H0702`, "may or may not be recorded"). Every unit has a deadline
/// (`Options.timeout`) covering the wait for a connection, the connect and every statement.
///
/// The store logs through swift-log (never prints). Close it with `close()` when done.
public final class PostgresLedgerStore: LedgerStore {
    /// How the store uses the server.
    public struct Options: Sendable {
        /// Connections open at once (units of work beyond wait for one).
        public var connections: Int = 16
        /// How many times a unit runs before a serialization failure or deadlock is reported.
        public var attempts: Int = 5
        /// How many times a unit whose connection broke runs again on a new one (before
        /// `COMMIT` was sent; or while committing, when it has an idempotency key).
        public var reconnects: Int = 1
        /// The most a unit of work, an event, a listing or `forget` may take, from asking for a
        /// connection to the answer to `COMMIT`; past it the connection is closed and the call
        /// fails with `H0706` saying whether anything may have been recorded.
        public var timeout: Duration = .seconds(10)
        /// The most a TCP connect (and TLS handshake) may take.
        public var connectTimeout: Duration = .seconds(5)
        /// The most `prune` may take (it may delete many rows).
        public var pruneTimeout: Duration = .seconds(600)
        public init() {}
    }

    /// The server and database, without the password.
    public let location: String
    private let connections: PostgresConnections
    private let options: Options
    private let logger: Logger

    /// Connects to `url`, checks the schema and migrates it.
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]` (`PostgresLocation`).
    ///   - options: see `Options`.
    ///   - logger: where the store and PostgresNIO log (nothing is printed).
    /// - Throws: `StoreError`: `badURL` (H0705) for a URL that cannot be read, `unreachable`
    ///   (H0702) naming the server and the cause (refused, unknown host, authentication, no such
    ///   database), `schemaTooNew` (H0703) for a database migrated by a newer Herald.
    public init(url: String, options: Options = Options(), logger: Logger = Logger(label: "herald.store.postgres")) async throws {
        let parsed: PostgresLocation
        do {
            parsed = try PostgresLocation(url: url)
        } catch {
            throw Self.storeError(error, location: "the URL")
        }
        location = parsed.description
        self.options = options
        self.logger = logger
        do {
            connections = try PostgresConnections(
                location: parsed, limit: options.connections, connectTimeout: options.connectTimeout, logger: logger)
        } catch {
            throw Self.storeError(error, location: parsed.description)
        }
        do {
            _ = try await PostgresDeadline.run(connections: connections, timeout: max(options.timeout, .seconds(60))) { connection, deadline in
                try await PostgresSchema.migrate(connection, deadline: deadline, logger: logger)
            }
        } catch {
            await connections.close()
            throw Self.storeError(error, location: parsed.description)
        }
    }

    /// Closes the idle connections (units in flight finish first).
    public func close() async {
        await connections.close()
    }

    // MARK: The unit of work

    private typealias ReadRow = (String?, Int?, String?, String?, String?, String?, Int?, String?, String?, Int?, Int?)
    private typealias WriteRow = (Bool, String?, String?, String?, String?, Int?, String?, String?, Int?, Int?)

    public func commit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value> {
        guard !user.isEmpty else { throw StoreError.missingUser }
        // Two statements, each its own transaction, when nothing is committed for the user
        // between them (the usual case); else the unit runs again holding the user's lock from
        // its read, inside BEGIN/COMMIT, where the version cannot change.
        if let done = try await unit(user: user, read: read, requestKey: requestKey, now: now, locked: false, decide: decide) {
            return done
        }
        logger.debug("herald unit of work ran again under the user's lock", metadata: ["user": "\(user)"])
        guard let done = try await unit(user: user, read: read, requestKey: requestKey, now: now, locked: true, decide: decide) else {
            throw StoreError(.databaseFailed, "user `\(user)`'s version changed while their row was locked (a hand-edited function?)")
        }
        return done
    }

    /// One run of a unit of work: `herald_unit_read`, `decide`, `herald_unit_write`. Unlocked, the
    /// two statements commit by themselves and nil says the write found the user's version
    /// changed since the read (it wrote nothing); locked, they run inside a transaction that
    /// holds the user's row lock from the read on.
    private func unit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int, locked: Bool,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value>? {
        let logger = self.logger
        let lifetimeTypes = read.lifetimeTypes.sorted()
        return try await transaction(user: user, explicit: locked, rerunWhenOutcomeUnknown: requestKey != nil) { connection, deadline in
            let rows = try await deadline.execute(
                UnitRead(user: user, requestKey: requestKey, since: read.since, lifetimeTypes: lifetimeTypes, lock: locked),
                on: connection, logger: logger)
            var version: Int?
            var snapshot: [LedgerRecord] = []
            for row in rows {
                if let body = row.0 {
                    return LedgerCommit(response: body, replayed: true, value: nil, inserted: [])
                }
                if row.2 == nil {
                    version = row.1
                    continue
                }
                snapshot.append(try Self.record(optional: (row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10)))
            }
            guard let version else {
                throw StoreError(.databaseFailed, "`herald_unit_read` returned no version (a hand-edited function?)")
            }
            // The key lookup is folded into the write: the function returns the live entries
            // holding keys the read did not show, and writes nothing then.
            var unit = UnitOfWork<Value>(snapshot: snapshot)
            while true {
                let proposal = try unit.propose(decide)
                // Unlocked, the write is the commit.
                if !locked { try deadline.willCommit() }
                let written = try await Self.write(
                    proposal, version: version, unseen: unit.unseenKeys, committing: !locked, connection: connection,
                    deadline: deadline, user: user, requestKey: requestKey, now: now, logger: logger)
                switch written {
                case .stale:
                    return nil
                case .colliding(let colliding):
                    unit.add(colliding)
                case .written:
                    if !locked {
                        // Written, but not yet known to be committed: in the extended protocol an
                        // implicit transaction commits at Sync, after the statement's rows and
                        // CommandComplete have been sent, and PostgresNIO answers at
                        // CommandComplete. A backend killed in between (tested) leaves nothing. A
                        // statement after it is answered only once the commit is done.
                        do {
                            _ = try await deadline.execute(Committed(), on: connection, logger: logger)
                        } catch let error where PostgresConnections.breaksConnection(error) {
                            throw PostgresStoreFailure.connectionLost(cause: Self.cause(of: error), outcomeUnknown: true)
                        }
                    }
                    let (proposal, value) = unit.result
                    return LedgerCommit(response: proposal.response, replayed: false, value: value, inserted: proposal.insert)
                }
            }
        }
    }

    /// `herald_unit_read`, a named prepared statement: parsed and planned once per connection.
    private struct UnitRead: PostgresPreparedStatement {
        static let name = "herald_unit_read_3"
        static let sql = "SELECT * FROM herald_unit_read($1, $2, $3, $4, $5)"
        typealias Row = ReadRow
        let user: String
        let requestKey: String?
        let since: Int?
        let lifetimeTypes: [String]
        let lock: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(user)
            bindings.append(requestKey)
            bindings.append(since)
            bindings.append(lifetimeTypes)
            bindings.append(lock)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            var cells = Cells(row)
            return try (cells.next(String?.self), cells.next(Int?.self), cells.next(String?.self), cells.next(String?.self),
                        cells.next(String?.self), cells.next(String?.self), cells.next(Int?.self), cells.next(String?.self),
                        cells.next(String?.self), cells.next(Int?.self), cells.next(Int?.self))
        }
    }

    /// A row's cells in order, each decoded by its own call, which the compiler specializes for
    /// its type. PostgresNIO's `decode((A, B, …).self)` goes through a parameter pack, whose
    /// metadata Swift looks up at run time for every row.
    private struct Cells {
        var iterator: PostgresRow.Iterator

        init(_ row: PostgresRow) {
            iterator = row.makeIterator()
        }

        mutating func next<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
            guard let cell = iterator.next() else {
                throw StoreError(.databaseFailed, "a row of the ledger's functions has fewer columns than Herald reads (a hand-edited function?)")
            }
            return try cell.decode(Value.self)
        }
    }

    /// `herald_unit_write`, a named prepared statement.
    private struct UnitWrite: PostgresPreparedStatement {
        static let name = "herald_unit_write_3"
        static let sql = "SELECT * FROM herald_unit_write($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)"
        typealias Row = WriteRow
        let user: String
        let version: Int
        let now: Int
        let requestKey: String?
        let response: String
        let unseen: [String]
        let cancel: [String]
        let update: String
        let insert: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 9)
            bindings.append(user)
            bindings.append(version)
            bindings.append(now)
            bindings.append(requestKey)
            bindings.append(response)
            bindings.append(unseen)
            bindings.append(cancel)
            bindings.append(update)
            bindings.append(insert)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            var cells = Cells(row)
            return try (cells.next(Bool.self), cells.next(String?.self), cells.next(String?.self), cells.next(String?.self),
                        cells.next(String?.self), cells.next(Int?.self), cells.next(String?.self), cells.next(String?.self),
                        cells.next(Int?.self), cells.next(Int?.self))
        }
    }

    /// `SELECT 1`, sent after an unlocked write to learn that its commit is done.
    private struct Committed: PostgresPreparedStatement {
        static let name = "herald_committed"
        static let sql = "SELECT 1"
        typealias Row = Int

        func makeBindings() throws -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int.self) }
    }

    /// What `herald_unit_write` did.
    private enum Written {
        /// Something was committed for the user since the read: nothing written.
        case stale
        /// Live entries holding keys the read did not show: nothing written.
        case colliding([LedgerRecord])
        /// The proposal and the response are written.
        case written
    }

    /// Writes `proposal` (and the response under `requestKey`) unless the user's version is no
    /// longer `version` or a live entry holds one of the `unseen` keys. `committing`: the
    /// statement is its own transaction, so a connection lost meanwhile leaves the outcome unknown.
    private static func write(
        _ proposal: LedgerProposal, version: Int, unseen: [String], committing: Bool, connection: PostgresConnection,
        deadline: PostgresDeadline, user: String, requestKey: String?, now: Int, logger: Logger
    ) async throws -> Written {
        let update = entriesJSON(proposal.update)
        let insert = entriesJSON(proposal.insert)
        let rows: [WriteRow]
        do {
            rows = try await deadline.execute(
                UnitWrite(user: user, version: version, now: now, requestKey: requestKey, response: proposal.response, unseen: unseen,
                          cancel: proposal.cancel, update: update, insert: insert),
                on: connection, logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "HR704" {
            throw StoreError.unknownKey(user: user, key: error.serverInfo?[.message] ?? "?")
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "HR707" {
            throw StoreError(.keyConflict, "user `\(user)` already has a live entry with key `\(error.serverInfo?[.message] ?? "?")`")
        } catch let error where committing && PostgresConnections.breaksConnection(error) {
            throw PostgresStoreFailure.connectionLost(cause: cause(of: error), outcomeUnknown: true)
        }
        var colliding: [LedgerRecord] = []
        for row in rows {
            if row.0 { return .stale }
            colliding.append(try record(optional: (row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9)))
        }
        return colliding.isEmpty ? .written : .colliding(colliding)
    }

    /// `[{"key", "type", "subject"?, "channel"?, "deliver_at", "status", "batch_key"?}, …]`, the
    /// shape `herald_unit_write` reads with `jsonb_array_elements`.
    static func entriesJSON(_ entries: [HistoryEntry]) -> String {
        if entries.isEmpty { return "[]" }
        let array = JSON.array(entries.map { entry in
            var members = [JSON.Member("key", .string(entry.key)), JSON.Member("type", .string(entry.type))]
            if let subject = entry.subject { members.append(JSON.Member("subject", .string(subject))) }
            if let channel = entry.channel { members.append(JSON.Member("channel", .string(channel))) }
            members.append(JSON.Member("deliver_at", .int(entry.deliverAt)))
            members.append(JSON.Member("status", .string(entry.status.rawValue)))
            if let batch = entry.batchKey { members.append(JSON.Member("batch_key", .string(batch))) }
            return JSON.object(members)
        })
        return array.serialized()
    }

    // MARK: Events, listing, deletion

    public func applyEvent(user: String, key: String, status: HistoryEntry.Status, at: Int) async throws -> LedgerRecord {
        guard !user.isEmpty else { throw StoreError.missingUser }
        let logger = self.logger
        return try await transaction(user: user) { connection, deadline in
            try await Self.lock(user: user, connection: connection, deadline: deadline, logger: logger)
            let rows = try await deadline.query("""
                UPDATE herald_entries SET status = \(status.rawValue), updated_at = \(at)
                WHERE user_id = \(user) AND key = \(key) AND status <> 'cancelled'
                RETURNING \(unescaped: Self.columns)
                """, on: connection, logger: logger)
            guard let row = rows.first else { throw StoreError.unknownKey(user: user, key: key) }
            // A unit that read the user's ledger before this event must not write on it.
            try await deadline.query(
                "UPDATE herald_users SET version = nextval('herald_versions') WHERE user_id = \(user)", on: connection, logger: logger)
            return try Self.record(row.decode(Row.self))
        }
    }

    public func entries(user: String) async throws -> [LedgerRecord] {
        let logger = self.logger
        return try await run(timeout: options.timeout) { connection, deadline in
            try await Self.entries(connection, deadline: deadline, user: user, logger: logger)
        }
    }

    public func forget(user: String) async throws -> Int {
        let logger = self.logger
        return try await transaction(user: user) { connection, deadline in
            try await Self.lock(user: user, connection: connection, deadline: deadline, logger: logger)
            try await deadline.query("DELETE FROM herald_responses WHERE user_id = \(user)", on: connection, logger: logger)
            let rows = try await deadline.query("""
                WITH deleted AS (DELETE FROM herald_entries WHERE user_id = \(user) RETURNING 1) SELECT count(*) FROM deleted
                """, on: connection, logger: logger)
            let count = try rows.first?.decode(Int.self) ?? 0
            try await deadline.query("DELETE FROM herald_users WHERE user_id = \(user)", on: connection, logger: logger)
            return count
        }
    }

    public func prune(before cutoff: Int, keepTypes: Set<String>) async throws -> Int {
        let logger = self.logger
        let keep = keepTypes.sorted()
        return try await run(timeout: options.pruneTimeout) { connection, deadline in
            try await deadline.query("BEGIN", on: connection, logger: logger)
            do {
                try await deadline.query("DELETE FROM herald_responses WHERE recorded_at < \(cutoff)", on: connection, logger: logger)
                // Counted by the server: the deleted rows are not sent.
                let rows = try await deadline.query("""
                    WITH deleted AS (DELETE FROM herald_entries WHERE deliver_at < \(cutoff) AND NOT (type = ANY(\(keep))) RETURNING 1)
                    SELECT count(*) FROM deleted
                    """, on: connection, logger: logger)
                let count = try rows.first?.decode(Int.self) ?? 0
                try await deadline.query("COMMIT", on: connection, logger: logger)
                return count
            } catch {
                if !connection.isClosed, !PostgresConnections.breaksConnection(error) {
                    _ = try? await deadline.query("ROLLBACK", on: connection, logger: logger)
                }
                throw error
            }
        }
    }

    /// `BEGIN`, a row written, `ROLLBACK`: throws unless the server takes writes now (a standby
    /// or a read-only database does not).
    public func checkWritable() async throws {
        let logger = self.logger
        try await run(timeout: options.timeout) { connection, deadline in
            try await deadline.query("BEGIN", on: connection, logger: logger)
            do {
                try await deadline.query(
                    "INSERT INTO herald_users (user_id) VALUES ('') ON CONFLICT (user_id) DO NOTHING", on: connection, logger: logger)
            } catch {
                if !connection.isClosed, !PostgresConnections.breaksConnection(error) {
                    _ = try? await deadline.query("ROLLBACK", on: connection, logger: logger)
                }
                throw error
            }
            try await deadline.query("ROLLBACK", on: connection, logger: logger)
        }
    }

    // MARK: Transactions

    /// One transaction (`body` takes the user's lock), within `Options.timeout`, run again on a
    /// serialization failure or a deadlock, and on a new connection when the old one broke
    /// before `COMMIT` (or while committing, when `rerunWhenOutcomeUnknown`: `body` must then find
    /// out by itself whether its first run committed, as a replay does). With `explicit` false
    /// there is no `BEGIN`/`COMMIT`: each statement of `body` commits by itself, and `body` marks
    /// the one that writes (`willCommit()`, and a lost connection then reported as
    /// `connectionLost(outcomeUnknown: true)`).
    private func transaction<Result: Sendable>(
        user: String, explicit: Bool = true, rerunWhenOutcomeUnknown: Bool = false,
        _ body: (PostgresConnection, PostgresDeadline) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        var attempt = 0
        var reconnects = 0
        // A run that lost the answer to its COMMIT: whatever later runs say, the caller must hear
        // that the unit may be recorded.
        var outcomeUnknown: (any Error)?
        while true {
            attempt += 1
            do {
                return try await PostgresDeadline.run(connections: connections, timeout: options.timeout) { connection, deadline in
                    // Not explicit: every statement of `body` is its own transaction, and `body`
                    // calls `willCommit()` before the one that writes.
                    guard explicit else { return try await body(connection, deadline) }
                    try await deadline.query("BEGIN", on: connection, logger: logger)
                    let result: Result
                    do {
                        result = try await body(connection, deadline)
                        try deadline.willCommit()
                    } catch {
                        if !connection.isClosed, !PostgresConnections.breaksConnection(error) {
                            _ = try? await deadline.query("ROLLBACK", on: connection, logger: logger)
                        }
                        throw error
                    }
                    do {
                        try await deadline.query("COMMIT", on: connection, logger: logger)
                    } catch let error where PostgresConnections.breaksConnection(error) {
                        throw PostgresStoreFailure.connectionLost(cause: Self.cause(of: error), outcomeUnknown: true)
                    }
                    return result
                }
            } catch {
                let failure = error is StoreError ? nil : PostgresStoreFailure.from(error, location: location)
                if PostgresStoreFailure.isRetryable(error), attempt < options.attempts {
                    logger.debug("herald unit of work retried", metadata: ["user": "\(user)", "attempt": "\(attempt)"])
                    try await Task.sleep(for: .milliseconds(attempt * 2))
                    continue
                }
                if case .connectionLost(_, true) = failure, outcomeUnknown == nil { outcomeUnknown = error }
                if case .connectionLost(_, let unknown) = failure {
                    // The server may have restarted: the idle connections are likely dead too.
                    connections.discardIdle()
                    if reconnects < options.reconnects, !unknown || rerunWhenOutcomeUnknown {
                        reconnects += 1
                        logger.warning("herald unit of work reconnecting", metadata: ["cause": "\(error)"])
                        continue
                    }
                }
                if let outcomeUnknown {
                    logger.warning("herald unit of work failed again after an unknown commit outcome", metadata: ["cause": "\(error)"])
                    throw Self.storeError(outcomeUnknown, location: location)
                }
                if PostgresStoreFailure.isRetryable(error) {
                    throw Self.storeError(PostgresStoreFailure.contention(
                        attempts: attempt, message: (error as? PSQLError)?.serverInfo?[.message] ?? "\(error)"), location: location)
                }
                throw Self.storeError(error, location: location)
            }
        }
    }

    /// One statement or a few outside a user's lock (listing, retention), within `timeout`.
    private func run<Result: Sendable>(
        timeout: Duration, _ body: (PostgresConnection, PostgresDeadline) async throws -> Result
    ) async throws -> Result {
        do {
            return try await PostgresDeadline.run(connections: connections, timeout: timeout, body)
        } catch {
            if case .connectionLost = error as? PostgresStoreFailure { connections.discardIdle() }
            throw Self.storeError(error, location: location)
        }
    }

    /// A broken connection's cause in words.
    private static func cause(of error: any Error) -> String {
        if case .connectionLost(let cause, _) = error as? PostgresStoreFailure { return cause }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "the server closed the connection (\(error.underlying.map { "\($0)" } ?? error.code.description))"
        }
        return "\(error)"
    }

    /// Takes the user's row lock, making the row on the user's first unit of work.
    private static func lock(user: String, connection: PostgresConnection, deadline: PostgresDeadline, logger: Logger) async throws {
        if try await locked(user: user, connection: connection, deadline: deadline, logger: logger) { return }
        try await deadline.query(
            "INSERT INTO herald_users (user_id) VALUES (\(user)) ON CONFLICT (user_id) DO NOTHING", on: connection, logger: logger)
        guard try await locked(user: user, connection: connection, deadline: deadline, logger: logger) else {
            // Deleted (`forget`) between the insert and the lock: run the unit again.
            throw StoreError(.databaseFailed, "the row of user `\(user)` vanished while it was being locked")
        }
    }

    private static func locked(user: String, connection: PostgresConnection, deadline: PostgresDeadline, logger: Logger) async throws -> Bool {
        let rows = try await deadline.query(
            "SELECT user_id FROM herald_users WHERE user_id = \(user) FOR UPDATE", on: connection, logger: logger)
        return !rows.isEmpty
    }

    // MARK: Rows

    private typealias Row = (String, String, String?, String?, Int, String, String?, Int, Int)
    private static let columns = "key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at"

    /// Every entry of the user, by delivery instant then recording order.
    private static func entries(_ connection: PostgresConnection, deadline: PostgresDeadline, user: String, logger: Logger) async throws -> [LedgerRecord] {
        let rows = try await deadline.query("""
            SELECT \(unescaped: columns) FROM herald_entries WHERE user_id = \(user) ORDER BY deliver_at, id
            """, on: connection, logger: logger)
        return try rows.map { try record($0.decode(Row.self)) }
    }

    private static func record(optional row: (String?, String?, String?, String?, Int?, String?, String?, Int?, Int?)) throws -> LedgerRecord {
        guard let key = row.0, let type = row.1, let deliverAt = row.4, let status = row.5, let recordedAt = row.7,
              let updatedAt = row.8 else {
            throw StoreError(.databaseFailed, "`herald_unit_read` returned an entry with a missing column (a hand-edited function?)")
        }
        return try record((key, type, row.2, row.3, deliverAt, status, row.6, recordedAt, updatedAt))
    }

    private static func record(_ row: Row) throws -> LedgerRecord {
        let (key, type, subject, channel, deliverAt, statusName, batchKey, recordedAt, updatedAt) = row
        guard let status = HistoryEntry.Status(rawValue: statusName) else {
            // The CHECK constraint admits no other; a hand-edited row is reported, not guessed.
            throw StoreError(.databaseFailed, "entry `\(key)` has status `\(statusName)`, which Herald does not know")
        }
        let entry = HistoryEntry(key: key, type: type, subject: subject, channel: channel, deliverAt: deliverAt,
                                 status: status, batchKey: batchKey)
        return LedgerRecord(entry: entry, recordedAt: recordedAt, updatedAt: updatedAt)
    }

    // MARK: Errors

    /// Any error as the store's: a `StoreError` or an error `decide` threw passes through; a
    /// PostgreSQL failure becomes a `StoreError` naming the server and the cause.
    static func storeError(_ error: any Error, location: String) -> any Error {
        if error is StoreError { return error }
        if !(error is PostgresStoreFailure || error is PSQLError || error is PostgresDecodingError) { return error }
        if let error = error as? PostgresDecodingError {
            return StoreError(.databaseFailed, "a row of `\(location)` does not have the shape Herald wrote (\(error.code) in column `\(error.columnName)`)")
        }
        switch PostgresStoreFailure.from(error, location: location) {
        case .badURL(let reason):
            return StoreError(.badURL, "the PostgreSQL URL cannot be read: \(reason)")
        case .unreachable(let place, let cause):
            return StoreError(.unreachable, "cannot connect to PostgreSQL at `\(place)`: \(cause)")
        case .authentication(let place, let message):
            return StoreError(.unreachable, "PostgreSQL at `\(place)` refused the login: \(message)")
        case .noDatabase(let place, let message):
            return StoreError(.unreachable, "PostgreSQL at `\(place)`: \(message)")
        case .schemaTooNew(let found, let known):
            return StoreError(.schemaTooNew, "the ledger at `\(location)` has schema version \(found), newer than this binary's \(known): upgrade herald")
        case .connectionLost(let cause, let outcomeUnknown):
            let outcome = outcomeUnknown
                ? "while committing: the unit of work may or may not be recorded (retrying with the same idempotency key is safe)"
                : "the unit of work was rolled back, nothing was recorded"
            return StoreError(.unreachable, "the connection to PostgreSQL at `\(location)` was lost (\(cause)); \(outcome)")
        case .contention(let attempts, let message):
            return StoreError(.databaseFailed, "PostgreSQL at `\(location)` kept aborting the unit of work (\(message)) on all \(attempts) attempts")
        case .server(let state, let message):
            return StoreError(.databaseFailed, "PostgreSQL at `\(location)` failed: \(message)\(state.isEmpty ? "" : " (SQLSTATE \(state))")")
        case .timedOut(let after, .waiting):
            return StoreError(.databaseFailed, "no connection to PostgreSQL at `\(location)` within \(describe(after)) (all in use, or the server not answering); nothing was sent")
        case .timedOut(let after, .running):
            return StoreError(.databaseFailed, "PostgreSQL at `\(location)` did not finish the unit of work within \(describe(after)); the connection was closed and the unit rolled back, nothing was recorded")
        case .timedOut(let after, .committing):
            return StoreError(.databaseFailed, "PostgreSQL at `\(location)` did not answer COMMIT within \(describe(after)); the unit of work may or may not be recorded (retrying with the same idempotency key is safe)")
        case .closed:
            return StoreError(.databaseFailed, "the store for PostgreSQL at `\(location)` was closed")
        }
    }

    /// `10 s`, `250 ms`.
    private static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
#endif
