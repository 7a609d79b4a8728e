import Foundation
import GRDB

/// Copies the store's write-ahead log into the database file in the background, on a connection
/// of its own, so that no unit of work waits for a checkpoint (docs/store.md § SQLite).
///
/// SQLite's automatic checkpoint runs in the writer right after a commit, on the thread that
/// committed: the units of that batch, and every unit waiting for the writer, wait for it (4,000
/// pages and two `fdatasync`s: the longest units, 20–60 ms). Here the writer's automatic
/// checkpoint is off; every `everyUnits` committed units a `PASSIVE` checkpoint runs on this
/// connection (GRDB's queue, not the caller's thread), beside the writer: it copies what the
/// log holds and never blocks a writer or a reader.
///
/// A checkpoint beside a busy writer never finds the end of the log still (the writer appends
/// while it copies), and SQLite starts the log again from its beginning only at a write that
/// finds all of it copied; so under steady load the log would grow without end. When the last
/// background checkpoint saw more than `writerCheckpointPages` in the log, no new one starts;
/// once the running one is done, the writer checkpoints itself after its next commit, while no
/// unit writes: it copies only what was appended since (the rest is copied already), and its
/// next transaction starts the log again. So the log stays near that size, and the writer's own
/// checkpoints are rare and short.
///
/// The state is guarded by an `NSLock`.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// Committed units between two background checkpoints.
    static let everyUnits = 256
    /// Log pages past which the writer checkpoints itself (16 MiB of 4 KiB pages).
    static let writerCheckpointPages = 4_000

    private let queue: DatabaseQueue
    private let lock = NSLock()
    private var units = 0
    private var running = false
    private var closed = false
    /// Pages in the log at the last background checkpoint.
    private var logPages = 0
    /// Background checkpoints run, and those the writer ran itself.
    private var background = 0
    private var byWriter = 0

    init(path: String, configuration: Configuration) throws {
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Called by the writer after each commit of `count` units. Starts a background checkpoint
    /// when it is time; returns true when the writer must checkpoint itself now (the log is
    /// past `writerCheckpointPages`).
    func committed(_ count: Int) -> Bool {
        let (start, writer) = lock.withLock { () -> (Bool, Bool) in
            guard !closed else { return (false, false) }
            units += count
            if logPages > Self.writerCheckpointPages {
                // The writer's turn, once the background checkpoint running (if any) is done.
                guard !running else { return (false, false) }
                logPages = 0
                units = 0
                byWriter += 1
                return (false, true)
            }
            guard units >= Self.everyUnits, !running else { return (false, false) }
            units = 0
            running = true
            return (true, false)
        }
        if start {
            Task.detached { await self.checkpoint() }
        }
        return writer
    }

    private func checkpoint() async {
        let result: (Int, Int)? = try? await queue.writeWithoutTransaction { db in
            guard let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)") else { return (0, 0) }
            let log: Int = row[1]
            let copied: Int = row[2]
            return (log, copied)
        }
        lock.withLock {
            running = false
            background += 1
            if let (log, _) = result {
                logPages = log
            }
        }
    }

    /// Background checkpoints run and checkpoints the writer ran itself (tests, diagnostics).
    var counts: (background: Int, byWriter: Int) {
        lock.withLock { (background, byWriter) }
    }

    /// Stops starting checkpoints and closes the connection (after the one running, if any).
    func close() {
        lock.withLock { closed = true }
        try? queue.close()
    }
}
