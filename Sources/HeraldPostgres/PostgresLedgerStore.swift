public import HeraldEngine
public import HeraldStore
public import Logging
internal import PostgresNIO

/// The `LedgerStore` for many Herald instances sharing one ledger: PostgreSQL through
/// PostgresNIO (docs/store.md § PostgreSQL).
///
/// Each unit of work is one transaction on a connection of its own. It first locks the user's
/// row in `herald_users` with `SELECT … FOR UPDATE` (made on the user's first unit): a row lock,
/// not an advisory lock, so it works on PostgreSQL-compatible databases sharded by user id
/// (Citus), and two units for one user — in this process or any other — never interleave, while
/// units for different users run in parallel. The transaction is `READ COMMITTED`: every
/// statement after the lock sees what the previous holder committed.
///
/// A unit that fails with a serialization failure (`40001`) or a deadlock (`40P01`) is rolled
/// back and run again, up to `Options.attempts` times. A connection lost before `COMMIT` was
/// sent is rolled back by the server; the unit runs again on a new connection, up to
/// `Options.reconnects` times. A connection lost while committing leaves the outcome unknown:
/// the error says so, and a retry with the same idempotency key is safe either way.
///
/// The store logs through swift-log (never prints). Close it with `close()` when done.
public final class PostgresLedgerStore: LedgerStore {
    /// How the store uses the server.
    public struct Options: Sendable {
        /// Connections open at once (units of work beyond wait for one).
        public var connections: Int = 16
        /// How many times a unit runs before a serialization failure or deadlock is reported.
        public var attempts: Int = 5
        /// How many times a unit whose connection broke before `COMMIT` runs again on a new one.
        public var reconnects: Int = 1
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
            connections = try PostgresConnections(location: parsed, limit: options.connections, logger: logger)
        } catch {
            throw Self.storeError(error, location: parsed.description)
        }
        do {
            _ = try await connections.withConnection { connection in
                try await PostgresSchema.migrate(connection, logger: logger)
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

    public func commit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value> {
        guard !user.isEmpty else { throw StoreError.missingUser }
        let logger = self.logger
        return try await transaction(user: user) { connection in
            if let requestKey {
                let rows = try await connection.query(
                    "SELECT body FROM herald_responses WHERE user_id = \(user) AND request_key = \(requestKey)",
                    logger: logger)
                for try await body in rows.decode(String.self) {
                    return LedgerCommit(response: body, replayed: true, value: nil, inserted: [])
                }
            }
            let snapshot = try await Self.entries(connection, user: user, read: read, logger: logger)
            let (proposal, value) = try await UnitOfWork.resolve(snapshot: snapshot, decide: decide) { keys in
                try await Self.liveEntries(connection, user: user, keys: keys, logger: logger)
            }
            try await Self.apply(proposal, connection: connection, user: user, now: now, logger: logger)
            if let requestKey {
                try await connection.query("""
                    INSERT INTO herald_responses (user_id, request_key, body, recorded_at)
                    VALUES (\(user), \(requestKey), \(proposal.response), \(now))
                    """, logger: logger)
            }
            return LedgerCommit(response: proposal.response, replayed: false, value: value, inserted: proposal.insert)
        }
    }

    private static func apply(
        _ proposal: LedgerProposal, connection: PostgresConnection, user: String, now: Int, logger: Logger
    ) async throws {
        for key in proposal.cancel {
            let rows = try await connection.query("""
                UPDATE herald_entries SET status = 'cancelled', updated_at = \(now)
                WHERE user_id = \(user) AND key = \(key) AND status <> 'cancelled' RETURNING id
                """, logger: logger)
            if try await rows.decode(Int.self).reduce(0, { count, _ in count + 1 }) == 0 {
                throw StoreError.unknownKey(user: user, key: key)
            }
        }
        for entry in proposal.update {
            let rows = try await connection.query("""
                UPDATE herald_entries SET type = \(entry.type), subject = \(entry.subject), channel = \(entry.channel),
                    deliver_at = \(entry.deliverAt), status = \(entry.status.rawValue), batch_key = \(entry.batchKey),
                    updated_at = \(now)
                WHERE user_id = \(user) AND key = \(entry.key) AND status <> 'cancelled' RETURNING id
                """, logger: logger)
            if try await rows.decode(Int.self).reduce(0, { count, _ in count + 1 }) == 0 {
                throw StoreError.unknownKey(user: user, key: entry.key)
            }
        }
        for entry in proposal.insert {
            do {
                try await connection.query("""
                    INSERT INTO herald_entries
                        (user_id, key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at)
                    VALUES (\(user), \(entry.key), \(entry.type), \(entry.subject), \(entry.channel), \(entry.deliverAt),
                        \(entry.status.rawValue), \(entry.batchKey), \(now), \(now))
                    """, logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                throw StoreError(.keyConflict, "user `\(user)` already has a live entry with key `\(entry.key)`")
            }
        }
    }

    // MARK: Events, listing, deletion

    public func applyEvent(user: String, key: String, status: HistoryEntry.Status, at: Int) async throws -> LedgerRecord {
        guard !user.isEmpty else { throw StoreError.missingUser }
        let logger = self.logger
        return try await transaction(user: user) { connection in
            let rows = try await connection.query("""
                UPDATE herald_entries SET status = \(status.rawValue), updated_at = \(at)
                WHERE user_id = \(user) AND key = \(key) AND status <> 'cancelled'
                RETURNING \(unescaped: Self.columns)
                """, logger: logger)
            for try await row in rows.decode(Row.self) {
                return try Self.record(row)
            }
            throw StoreError.unknownKey(user: user, key: key)
        }
    }

    public func entries(user: String) async throws -> [LedgerRecord] {
        let logger = self.logger
        return try await run { connection in
            try await Self.entries(connection, user: user, read: .all, logger: logger)
        }
    }

    public func forget(user: String) async throws -> Int {
        let logger = self.logger
        return try await transaction(user: user) { connection in
            try await connection.query("DELETE FROM herald_responses WHERE user_id = \(user)", logger: logger)
            let rows = try await connection.query("DELETE FROM herald_entries WHERE user_id = \(user) RETURNING id", logger: logger)
            let count = try await rows.decode(Int.self).reduce(0) { count, _ in count + 1 }
            try await connection.query("DELETE FROM herald_users WHERE user_id = \(user)", logger: logger)
            return count
        }
    }

    public func prune(before cutoff: Int, keepTypes: Set<String>) async throws -> Int {
        let logger = self.logger
        let keep = keepTypes.sorted()
        return try await run { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("DELETE FROM herald_responses WHERE recorded_at < \(cutoff)", logger: logger)
                let rows = try await connection.query("""
                    DELETE FROM herald_entries WHERE deliver_at < \(cutoff) AND NOT (type = ANY(\(keep))) RETURNING id
                    """, logger: logger)
                let count = try await rows.decode(Int.self).reduce(0) { count, _ in count + 1 }
                try await connection.query("COMMIT", logger: logger)
                return count
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    // MARK: Transactions

    /// One transaction holding `user`'s row lock, run again on a serialization failure or a
    /// deadlock, and on a new connection when the old one broke before `COMMIT`.
    private func transaction<Result: Sendable>(
        user: String, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        var attempt = 0
        var reconnects = 0
        while true {
            attempt += 1
            var committing = false
            do {
                return try await connections.withConnection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        try await Self.lock(user: user, connection: connection, logger: logger)
                        let result = try await body(connection)
                        committing = true
                        try await connection.query("COMMIT", logger: logger)
                        return result
                    } catch {
                        if !committing, !connection.isClosed {
                            _ = try? await connection.query("ROLLBACK", logger: logger)
                        }
                        throw error
                    }
                }
            } catch {
                let failure = error is StoreError ? nil : PostgresStoreFailure.from(error, location: location, committing: committing)
                if PostgresStoreFailure.isRetryable(error), attempt < options.attempts {
                    logger.debug("herald unit of work retried", metadata: ["user": "\(user)", "attempt": "\(attempt)"])
                    try await Task.sleep(for: .milliseconds(attempt * 2))
                    continue
                }
                if case .connectionLost(_, false) = failure, reconnects < options.reconnects {
                    reconnects += 1
                    logger.warning("herald unit of work reconnecting", metadata: ["cause": "\(error)"])
                    continue
                }
                if PostgresStoreFailure.isRetryable(error) {
                    throw Self.storeError(PostgresStoreFailure.contention(
                        attempts: attempt, message: (error as? PSQLError)?.serverInfo?[.message] ?? "\(error)"), location: location)
                }
                throw Self.storeError(error, location: location)
            }
        }
    }

    /// One statement or a few outside a user's lock (listing, retention).
    private func run<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await connections.withConnection(body)
        } catch {
            throw Self.storeError(error, location: location)
        }
    }

    /// Takes the user's row lock, making the row on the user's first unit of work.
    private static func lock(user: String, connection: PostgresConnection, logger: Logger) async throws {
        if try await locked(user: user, connection: connection, logger: logger) { return }
        try await connection.query(
            "INSERT INTO herald_users (user_id) VALUES (\(user)) ON CONFLICT (user_id) DO NOTHING", logger: logger)
        guard try await locked(user: user, connection: connection, logger: logger) else {
            // Deleted (`forget`) between the insert and the lock: run the unit again.
            throw StoreError(.databaseFailed, "the row of user `\(user)` vanished while it was being locked")
        }
    }

    private static func locked(user: String, connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT user_id FROM herald_users WHERE user_id = \(user) FOR UPDATE", logger: logger)
        return try await rows.decode(String.self).reduce(false) { _, _ in true }
    }

    // MARK: Rows

    private typealias Row = (String, String, String?, String?, Int, String, String?, Int, Int)
    private static let columns = "key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at"

    /// The user's entries `read` selects, by delivery instant then recording order.
    private static func entries(
        _ connection: PostgresConnection, user: String, read: LedgerRead, logger: Logger
    ) async throws -> [LedgerRecord] {
        let rows: PostgresRowSequence
        if let since = read.since, read.lifetimeTypes.isEmpty {
            rows = try await connection.query("""
                SELECT \(unescaped: columns) FROM herald_entries
                WHERE user_id = \(user) AND deliver_at >= \(since) ORDER BY deliver_at, id
                """, logger: logger)
        } else if let since = read.since {
            rows = try await connection.query("""
                SELECT \(unescaped: columns) FROM herald_entries
                WHERE user_id = \(user) AND (deliver_at >= \(since) OR type = ANY(\(read.lifetimeTypes.sorted())))
                ORDER BY deliver_at, id
                """, logger: logger)
        } else {
            rows = try await connection.query("""
                SELECT \(unescaped: columns) FROM herald_entries WHERE user_id = \(user) ORDER BY deliver_at, id
                """, logger: logger)
        }
        var records: [LedgerRecord] = []
        for try await row in rows.decode(Row.self) {
            records.append(try record(row))
        }
        return records
    }

    private static func liveEntries(
        _ connection: PostgresConnection, user: String, keys: [String], logger: Logger
    ) async throws -> [LedgerRecord] {
        let rows = try await connection.query("""
            SELECT \(unescaped: columns) FROM herald_entries
            WHERE user_id = \(user) AND key = ANY(\(keys)) AND status <> 'cancelled' ORDER BY deliver_at, id
            """, logger: logger)
        var records: [LedgerRecord] = []
        for try await row in rows.decode(Row.self) {
            records.append(try record(row))
        }
        return records
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
        }
    }
}
