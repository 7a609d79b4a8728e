import GRDB

/// One statement on a ledger file through its own connection, outside any store: for tests and
/// tools that look at the file as another process would (the schema, `PRAGMA integrity_check`).
public enum SQLiteProbe {
    /// Runs `sql` and returns the first column of its first row as text (nil: no row).
    public static func scalar(path: String, sql: String) throws -> String? {
        let queue = try DatabaseQueue(path: path)
        return try queue.writeWithoutTransaction { db in try String.fetchOne(db, sql: sql) }
    }
}
