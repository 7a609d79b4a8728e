import Foundation
import GRDB

/// The units of work waiting for the store's writer connection, and who runs them: group
/// commit (docs/store.md § SQLite).
///
/// A unit that finds the writer free becomes the *leader*: on its caller's thread it runs itself
/// and every unit waiting at that moment (up to `maximumBatch`) in one `BEGIN IMMEDIATE`
/// transaction, each in a savepoint of its own, commits once, and only then hands every unit its
/// outcome. A unit that finds the writer busy suspends (its continuation waits here; no thread
/// does) until a leader has run it, or until it is made the next leader. So one commit, one set
/// of log writes and one lock round carry many units when many arrive together, and a lone unit
/// runs as it did before: one transaction, no savepoint.
///
/// Each unit's `body` is a whole unit of work — reads, a pure decision, writes — so its savepoint
/// isolates it: a unit that throws is rolled back to its savepoint alone and gets its error; the
/// others are committed. Units of one user run one after the other inside the transaction, each
/// seeing what the one before wrote, exactly as if each had committed.
///
/// The state is guarded by an `NSLock`, a pthread mutex, which ThreadSanitizer understands.
final class SQLiteWriterGate: @unchecked Sendable {
    /// One unit of work: its body and, once run, its error (or none).
    final class Job: @unchecked Sendable {
        /// Runs the unit on the writer connection (inside a transaction) and keeps its value.
        /// Dropped by the unit's owner once it has its outcome (`finish()`): the body may capture
        /// closures that must not outlive the call (`withoutActuallyEscaping`), while the leader
        /// may still hold the job itself.
        private var body: ((Database) throws -> Void)?
        /// Set by the leader before the unit is resumed: nil when `body` succeeded and was committed.
        var error: (any Error)?
        fileprivate var continuation: CheckedContinuation<Role, Never>?

        init(_ body: @escaping (Database) throws -> Void) {
            self.body = body
        }

        /// Runs the body (the leader, inside its transaction).
        func run(_ db: Database) throws {
            guard let body else { preconditionFailure("a unit of work ran after it finished") }
            try body(db)
        }

        /// Drops the body (the owner, once `submit` returned).
        func finish() {
            body = nil
        }
    }

    /// What a waiting unit is woken for.
    fileprivate enum Role { case done, lead }

    /// The most units one transaction carries: a unit waits at most this many units' work for
    /// its commit.
    static let maximumBatch = 32

    private let lock = NSLock()
    /// Whether a leader is running (handing the lead to a waiter keeps it set).
    private var leading = false
    /// The suspended units, oldest first from `head`.
    private var waiters: [Job] = []
    private var head = 0
    /// Transactions run and units they carried.
    private var batches = 0
    private var units = 0

    /// How many transactions the leaders ran and how many units they carried (tests, figures).
    var counts: (batches: Int, units: Int, waiting: Int) {
        lock.withLock { (batches, units, waiters.count - head) }
    }

    /// Runs `job`: in a batch another caller leads, or in one this caller leads with `run`,
    /// which gets `job` first and then the units that were waiting. Returns when `job` has an
    /// outcome (`job.error`).
    func submit(_ job: Job, run: ([Job]) async -> Void) async {
        let leadNow = lock.withLock { () -> Bool in
            if leading { return false }
            leading = true
            return true
        }
        if !leadNow {
            let role = await withCheckedContinuation { (continuation: CheckedContinuation<Role, Never>) in
                let lead = lock.withLock { () -> Bool in
                    if !leading {
                        leading = true
                        return true
                    }
                    job.continuation = continuation
                    waiters.append(job)
                    return false
                }
                if lead { continuation.resume(returning: .lead) }
            }
            if role == .done { return }
        }
        let others = lock.withLock { () -> [Job] in
            let end = min(waiters.count, head + Self.maximumBatch - 1)
            let taken = Array(waiters[head ..< end])
            head = end
            compact()
            return taken
        }
        let batch = [job] + others
        await run(batch)
        let next = lock.withLock { () -> Job? in
            batches += 1
            units += batch.count
            guard head < waiters.count else {
                leading = false
                return nil
            }
            let next = waiters[head]
            head += 1
            compact()
            return next
        }
        for other in others { other.continuation?.resume(returning: .done) }
        next?.continuation?.resume(returning: .lead)
    }

    /// Drops the taken waiters from the front now and then (under the lock).
    private func compact() {
        if head == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= waiters.count {
            waiters.removeFirst(head)
            head = 0
        }
    }
}
