import GRDB
import HeraldStore

/// The versioned schema of the SQLite ledger (GRDB's `DatabaseMigrator`; docs/store.md § Schema).
///
/// Migrations are append-only: a released migration is never edited, a change is a new one.
/// A database holding a migration this binary does not know was written by a newer Herald and
/// is refused (`StoreError.schemaTooNew`), never opened half-understood.
enum SQLiteSchema {
    /// The identifiers of the migrations this binary knows, oldest first.
    static var migrations: [String] { migrator.migrations }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-ledger") { db in
            // One row per ledger entry. `key` is unique per user among live entries (every
            // status but `cancelled`): the partial unique index below.
            try db.execute(sql: """
                CREATE TABLE entry (
                    id INTEGER PRIMARY KEY,
                    user TEXT NOT NULL,
                    key TEXT NOT NULL,
                    type TEXT NOT NULL,
                    subject TEXT,
                    channel TEXT,
                    deliver_at INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('scheduled', 'delivered', 'opened', 'dismissed', 'cancelled')),
                    batch_key TEXT,
                    recorded_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX entry_live_key ON entry (user, key) WHERE status <> 'cancelled';
                CREATE INDEX entry_user_deliver ON entry (user, deliver_at);
                CREATE INDEX entry_deliver ON entry (deliver_at);
                CREATE TABLE response (
                    user TEXT NOT NULL,
                    request_key TEXT NOT NULL,
                    body TEXT NOT NULL,
                    recorded_at INTEGER NOT NULL,
                    PRIMARY KEY (user, request_key)
                ) WITHOUT ROWID;
                CREATE INDEX response_recorded ON response (recorded_at);
                """)
        }
        migrator.registerMigration("v2-response-rowid") { db in
            // Stored responses (~1-4 KB each) in a rowid table: a new one is appended at the end
            // of the table instead of landing, with its overflow pages, at a random place of a
            // tree ordered by user; only the small (user, request_key) index entry goes there.
            try db.execute(sql: """
                CREATE TABLE response_v2 (
                    id INTEGER PRIMARY KEY,
                    user TEXT NOT NULL,
                    request_key TEXT NOT NULL,
                    body TEXT NOT NULL,
                    recorded_at INTEGER NOT NULL
                );
                INSERT INTO response_v2 (user, request_key, body, recorded_at)
                    SELECT user, request_key, body, recorded_at FROM response ORDER BY recorded_at;
                DROP TABLE response;
                ALTER TABLE response_v2 RENAME TO response;
                CREATE UNIQUE INDEX response_user_key ON response (user, request_key);
                CREATE INDEX response_recorded ON response (recorded_at);
                """)
        }
        return migrator
    }()

    /// Migrates `writer` to this binary's schema.
    /// - Throws: `StoreError.schemaTooNew` when the database has migrations this binary does
    ///   not know (checked before anything is written).
    static func migrate(_ writer: DatabasePool, path: String) throws {
        let unknown = try writer.read { db in
            try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
        }
        if !unknown.isEmpty {
            throw StoreError(.schemaTooNew, "`\(path)` was written by a newer Herald (schema \(unknown.sorted().map { "`\($0)`" }.joined(separator: ", ")) unknown to this binary, which knows up to `\(migrator.migrations.last ?? "")`): upgrade herald")
        }
        try migrator.migrate(writer)
    }
}
