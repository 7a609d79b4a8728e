import GRDB
import HeraldStore
import Synchronization

/// Group commit for `SQLiteLedgerStore.commit`: the units of work waiting for the writer (of any
/// users) run in one `BEGIN IMMEDIATE` transaction, each in its own savepoint, and are committed
/// once: one log append and one lock round for the group instead of one per unit.
///
/// - A lone unit runs as before grouping existed: its own transaction, no savepoint, no wait.
///   Only units already queued when the writer turns to them join a group (at most `maximumGroup`,
///   so a group stays short and the units behind it are not held long); nothing ever waits for
///   company.
/// - A unit that throws (a decide error, an unknown key, a key conflict) is rolled back to its
///   savepoint alone and gets its own error; the others of the group commit.
/// - Callers are resumed only after the group's `COMMIT` returned: a result is never seen before
///   it is durable to the connection's `synchronous` setting. If `COMMIT` fails, or an error
///   rolls the whole transaction back (SQLite does so on a full disk or an I/O error), every unit
///   of the group gets that error and nothing of the group is visible.
/// - Units run in submission order, so two units of one user with one request key behave as two
///   transactions one after the other: the second reads the first's stored response and replays it.
/// - Each group is one job on GRDB's writer queue; when more units are waiting after a group, the
///   next group is queued behind whatever else was submitted meanwhile (events, forget, prune), so
///   a steady stream of units never starves them.
final class SQLiteGroupCommit: Sendable {
    /// One unit of work waiting for the writer.
    struct Unit: Sendable {
        /// Runs the unit inside the open transaction; returns how to hand its result to its
        /// caller, called once the transaction is committed.
        let run: @Sendable (Database) throws -> @Sendable () -> Void
        /// Resumes the caller with an error: its own, or its group's.
        let fail: @Sendable (any Error) -> Void
    }

    /// Set when the task that submitted a unit is cancelled; the unit checks it when it starts.
    final class Cancellation: Sendable {
        private let cancelled = Atomic(false)
        init() {}
        func cancel() { cancelled.store(true, ordering: .relaxed) }
        func check() throws {
            if cancelled.load(ordering: .relaxed) { throw CancellationError() }
        }
    }

    /// What the group commit saw, for tests (`statistics`).
    struct Statistics: Sendable, Equatable {
        /// Transactions run (a lone unit's included).
        var groups = 0
        /// Units run.
        var units = 0
        /// The largest group.
        var largest = 0
    }

    private struct State {
        var pending: [Unit] = []
        var scheduled = false
        var statistics = Statistics()
        var beforeCommit: (@Sendable (Int) throws -> Void)?
    }

    private let state = Mutex(State())
    private let pool: DatabasePool
    /// The most units one transaction runs.
    let maximumGroup: Int

    init(pool: DatabasePool, maximumGroup: Int = 64) {
        self.pool = pool
        self.maximumGroup = max(1, maximumGroup)
    }

    /// Queues `unit` for the writer; it runs in the next group (alone if nothing else waits).
    func submit(_ unit: Unit) {
        let schedule = state.withLock { state in
            state.pending.append(unit)
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        if schedule { scheduleGroup() }
    }

    private func scheduleGroup() {
        pool.asyncWriteWithoutTransaction { db in self.runNextGroup(db) }
    }

    /// On the writer's queue: takes what is waiting (up to `maximumGroup`) and runs it.
    private func runNextGroup(_ db: Database) {
        var (group, beforeCommit) = state.withLock { state in
            let group = Array(state.pending.prefix(maximumGroup))
            state.pending.removeFirst(group.count)
            state.statistics.groups += 1
            state.statistics.units += group.count
            state.statistics.largest = max(state.statistics.largest, group.count)
            return (group, state.beforeCommit)
        }
        let finish = group.count == 1
            ? Self.runAlone(group[0], db: db, beforeCommit: beforeCommit)
            : Self.runGroup(group, db: db, beforeCommit: beforeCommit)
        // The units' `run` closures borrow their callers' `decide` (`withoutActuallyEscaping` in
        // `SQLiteLedgerStore.commit`): release them before any caller resumes.
        group.removeAll()
        for resume in finish { resume() }
        let more = state.withLock { state in
            if !state.pending.isEmpty { return true }
            state.scheduled = false
            return false
        }
        if more { scheduleGroup() }
    }

    /// Resumes one caller; holds its result or error, never its unit.
    private typealias Finish = @Sendable () -> Void

    private static func failing(_ unit: Unit, _ error: any Error) -> Finish {
        let fail = unit.fail
        return { fail(error) }
    }

    private static func runAlone(_ unit: Unit, db: Database, beforeCommit: (@Sendable (Int) throws -> Void)?) -> [Finish] {
        var deliver: Finish?
        do {
            try db.inTransaction(.immediate) {
                deliver = try unit.run(db)
                try beforeCommit?(1)
                return .commit
            }
        } catch {
            return [failing(unit, error)]
        }
        return [deliver ?? failing(unit, StoreError(.databaseFailed, "a unit of work did not run"))]
    }

    private static func runGroup(_ group: [Unit], db: Database, beforeCommit: (@Sendable (Int) throws -> Void)?) -> [Finish] {
        var finish: [Finish] = []
        finish.reserveCapacity(group.count)
        do {
            try db.inTransaction(.immediate) {
                for unit in group {
                    do {
                        var deliver: Finish?
                        try db.inSavepoint {
                            deliver = try unit.run(db)
                            return .commit
                        }
                        finish.append(deliver ?? failing(unit, StoreError(.databaseFailed, "a unit of work did not run")))
                    } catch {
                        // SQLite ended the whole transaction (a full disk, an I/O error): the
                        // units before this one are gone too, so the group fails as one.
                        if !db.isInsideTransaction { throw error }
                        finish.append(failing(unit, error))
                    }
                }
                try beforeCommit?(group.count)
                return .commit
            }
        } catch {
            return group.map { failing($0, error) }
        }
        return finish
    }

    // MARK: Testing

    /// How many units wait for the writer (not yet taken into a group).
    var waiting: Int { state.withLock { $0.pending.count } }

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// Runs `hook` in every transaction after its units and before its `COMMIT` (with the
    /// number of units): a test holds a group there, or fails it as a failed `COMMIT` would.
    func setBeforeCommit(_ hook: (@Sendable (Int) throws -> Void)?) {
        state.withLock { $0.beforeCommit = hook }
    }
}
