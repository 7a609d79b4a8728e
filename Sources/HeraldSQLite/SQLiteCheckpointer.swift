import Foundation
import GRDB

/// Copies the store's write-ahead log into the database file in the background, on a connection
/// of its own, so that no unit of work waits for a checkpoint (docs/store.md § SQLite).
///
/// The writer's automatic checkpoint is off. Every `everyUnits` committed units a `PASSIVE`
/// checkpoint runs here, on a thread of its own (not the cooperative pool, where a busy server
/// could keep it waiting); it never blocks a writer or a reader.
///
/// A passive checkpoint beside a busy writer never copies the whole log, and SQLite restarts the
/// log only after one that did, so under load the log would grow without end. Once it passes
/// `writerCheckpointPages`, checkpoints here catch up (each copies what the writer appended
/// during the one before) until one finds at most `catchUpPages` new pages; then the writer
/// checkpoints after its next commit, copying only those, and its next transaction restarts the log.
///
/// The state is guarded by an `NSCondition`, which the thread also waits on.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// Committed units between two background checkpoints.
    static let everyUnits = 256
    /// Log pages past which the log is to start again (16 MiB of 4 KiB pages).
    static let writerCheckpointPages = 4_000
    /// New log pages a catch-up checkpoint may find for the writer's own to come next.
    static let catchUpPages = 64
    /// Catch-up checkpoints before the writer's own comes regardless (a disk slower than
    /// the writer would otherwise postpone it for ever).
    static let maximumCatchUpRounds = 16

    /// What the writer and the checkpoint thread share; the thread holds it, not the
    /// checkpointer, so that a store dropped without `close()` ends the thread (`deinit`).
    /// Once `closed`, the thread never touches `queue` again.
    private final class Shared: @unchecked Sendable {
        let queue: DatabaseQueue
        let condition = NSCondition()
        var units = 0
        /// A checkpoint asked for or running.
        var running = false
        var closed = false
        var threadStarted = false
        /// Pages in the log at the last background checkpoint.
        var logPages = 0
        /// Pages the log gained between the two last background checkpoints (all of it when
        /// it started again in between).
        var gainedPages = Int.max
        /// Catch-up checkpoints run since the log outgrew `writerCheckpointPages`.
        var catchUpRounds = 0
        /// Background checkpoints run (catch-up ones among them), and those the writer ran itself.
        var background = 0
        var catchUp = 0
        var byWriter = 0

        init(queue: DatabaseQueue) {
            self.queue = queue
        }

        /// The thread's loop: a checkpoint each time one is asked for, until closed.
        func loop() {
            while true {
                condition.lock()
                while !running, !closed { condition.wait() }
                if closed {
                    running = false
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                condition.unlock()
                let log: Int? = try? queue.writeWithoutTransaction { db in
                    try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)").map { row in row[1] as Int }
                } ?? nil
                condition.lock()
                running = false
                background += 1
                if let log {
                    gainedPages = log >= logPages ? log - logPages : log
                    logPages = log
                }
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    private let shared: Shared

    init(path: String, configuration: Configuration) throws {
        shared = Shared(queue: try DatabaseQueue(path: path, configuration: configuration))
    }

    /// A store dropped without `close()` lets go of the file as GRDB's own connections do: the
    /// checkpoint running (if any) ends first, then this connection closes.
    deinit {
        close()
    }

    /// Called by the writer after each commit of `count` units. Asks for a background
    /// checkpoint when it is time; returns true when the writer must checkpoint itself now (the
    /// log is past `writerCheckpointPages`).
    func committed(_ count: Int) -> Bool {
        let shared = self.shared
        shared.condition.lock()
        defer { shared.condition.unlock() }
        guard !shared.closed else { return false }
        shared.units += count
        if shared.logPages > Self.writerCheckpointPages {
            // Catching up, then the writer's turn, each once the checkpoint running (if any) is done.
            guard !shared.running else { return false }
            if shared.gainedPages > Self.catchUpPages, shared.catchUpRounds < Self.maximumCatchUpRounds {
                shared.catchUpRounds += 1
                shared.catchUp += 1
                startCheckpoint(shared)
                return false
            }
            shared.logPages = 0
            shared.gainedPages = Int.max
            shared.catchUpRounds = 0
            shared.units = 0
            shared.byWriter += 1
            return true
        }
        guard shared.units >= Self.everyUnits, !shared.running else { return false }
        startCheckpoint(shared)
        return false
    }

    /// Asks the thread (started the first time) for a checkpoint (under the lock).
    private func startCheckpoint(_ shared: Shared) {
        shared.units = 0
        shared.running = true
        if !shared.threadStarted {
            shared.threadStarted = true
            let thread = Thread { shared.loop() }
            thread.name = "herald.sqlite.checkpoint"
            thread.start()
        }
        shared.condition.broadcast()
    }

    /// Background checkpoints run (and the catch-up ones among them) and checkpoints the
    /// writer ran itself (tests, diagnostics).
    var counts: (background: Int, catchUp: Int, byWriter: Int) {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        return (shared.background, shared.catchUp, shared.byWriter)
    }

    /// Stops asking for checkpoints, waits for the one running (if any) and closes the
    /// connection.
    func close() {
        let shared = self.shared
        shared.condition.lock()
        shared.closed = true
        shared.condition.broadcast()
        while shared.running { shared.condition.wait() }
        shared.condition.unlock()
        try? shared.queue.close()
    }
}
