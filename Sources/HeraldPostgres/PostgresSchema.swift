internal import Logging
internal import PostgresNIO

/// The PostgreSQL ledger's schema and its versioned migrations (docs/store.md, "Schema").
///
/// Every table is prefixed `herald_` so that the ledger can share a database with the
/// application's own tables, and every table's primary key starts with `user_id`, the column a
/// distributed PostgreSQL (Citus) shards by: each unit of work touches one user's rows only.
enum PostgresSchema {
    /// One step of the schema. Versions are consecutive from 1 and never change once released;
    /// a new step is appended.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]
    }

    static let migrations: [Migration] = [
        Migration(version: 1, name: "ledger", statements: [
            // The row a unit of work locks (`SELECT … FOR UPDATE`): one per user, made by the
            // user's first unit of work.
            "CREATE TABLE herald_users (user_id text PRIMARY KEY)",
            """
            CREATE TABLE herald_entries (
                user_id text NOT NULL,
                id bigint GENERATED ALWAYS AS IDENTITY,
                key text NOT NULL,
                type text NOT NULL,
                subject text,
                channel text,
                deliver_at bigint NOT NULL,
                status text NOT NULL
                    CHECK (status IN ('scheduled', 'delivered', 'opened', 'dismissed', 'cancelled')),
                batch_key text,
                recorded_at bigint NOT NULL,
                updated_at bigint NOT NULL,
                PRIMARY KEY (user_id, id)
            )
            """,
            // Keys are unique per user among live entries (every status but `cancelled`).
            "CREATE UNIQUE INDEX herald_entries_live_key ON herald_entries (user_id, key) WHERE status <> 'cancelled'",
            // What a unit of work reads: the user's entries from an instant on.
            "CREATE INDEX herald_entries_user_deliver ON herald_entries (user_id, deliver_at)",
            // Retention's cut-off.
            "CREATE INDEX herald_entries_deliver ON herald_entries (deliver_at)",
            // Responses stored under the request's idempotency key, returned byte for byte.
            """
            CREATE TABLE herald_responses (
                user_id text NOT NULL,
                request_key text NOT NULL,
                body text NOT NULL,
                recorded_at bigint NOT NULL,
                PRIMARY KEY (user_id, request_key)
            )
            """,
            "CREATE INDEX herald_responses_recorded ON herald_responses (recorded_at)",
        ]),
    ]

    /// The newest schema version this binary knows.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// The outcome of `migrate`: the version found and the version left.
    struct MigrationResult: Sendable, Equatable {
        let found: Int
        let current: Int
    }

    /// Brings the database to `currentVersion`, one transaction for all pending steps.
    ///
    /// Concurrent callers (several Herald instances starting at once) serialise on an exclusive
    /// lock of the migrations table; the second one finds the work done.
    ///
    /// - Throws: `PostgresStoreFailure.schemaTooNew` when the database was migrated by a newer
    ///   binary (this one would misread it), or the server's error.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> MigrationResult {
        try await createMigrationsTable(connection, logger: logger)
        try await connection.query("BEGIN", logger: logger)
        do {
            try await connection.query("LOCK TABLE herald_migrations IN EXCLUSIVE MODE", logger: logger)
            var found = 0
            let rows = try await connection.query("SELECT coalesce(max(version), 0) FROM herald_migrations", logger: logger)
            for try await version in rows.decode(Int.self) {
                found = version
            }
            guard found <= currentVersion else {
                throw PostgresStoreFailure.schemaTooNew(found: found, known: currentVersion)
            }
            for migration in migrations where migration.version > found {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO herald_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                )
                logger.info("herald ledger schema migrated", metadata: ["version": "\(migration.version)"])
            }
            try await connection.query("COMMIT", logger: logger)
            return MigrationResult(found: found, current: currentVersion)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// `CREATE TABLE IF NOT EXISTS` is not safe against a concurrent creator (both pass the
    /// check, one fails on the catalog's unique index), so a duplicate is read as success.
    private static func createMigrationsTable(_ connection: PostgresConnection, logger: Logger) async throws {
        do {
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS herald_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                logger: logger
            )
        } catch let error as PSQLError where ["23505", "42P07"].contains(error.serverInfo?[.sqlState]) {
            return
        }
    }
}
