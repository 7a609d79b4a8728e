import Foundation

/// Runs a task's jobs on a thread of its own instead of Swift's cooperative pool (a task that
/// must block its thread, as a unit holding SQLite's write lock does in a test). A dispatch
/// queue would not do: on Linux it shares its worker threads with the pool, and when the suites
/// running beside it keep them busy its jobs wait too. `shared` is one thread for the test
/// process; a test that must not wait for another one's blocked job makes its own.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    public static let shared = OwnThreadExecutor()

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []

    public init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "herald.tests.own-thread"
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}
