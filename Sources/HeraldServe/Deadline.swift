#if Server
import HeraldStore

/// Runs an operation with a time limit, answering at the limit even when the operation does not
/// stop at cancellation (a store call blocked in its driver): the operation runs in a task of its
/// own, and whichever of it and the limit comes first resumes the caller.
///
/// The limits are watched by one shared `Watchdog`, not by a sleeping timer task per call, which
/// is created, scheduled, cancelled and woken for every request (its cost: docs/performance.md).
enum Deadline {
    /// - Throws: `APIError.timeout` at the limit (the operation is cancelled), else what it throws.
    static func run<Value: Sendable>(within limit: Duration, watchdog: Watchdog = .shared,
                                     _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let gate = Gate()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let watch = watchdog.add(at: ContinuousClock.now.advanced(by: limit)) {
                guard let work = gate.open() else { return }
                work?.cancel()
                continuation.resume(throwing: APIError.timeout)
            }
            gate.setWork(Task {
                let result: Result<Value, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                if gate.open() != nil {
                    watchdog.remove(watch)
                    continuation.resume(with: result)
                }
            })
        }
    }

    /// Lets exactly one of the operation and the limit resume the continuation (`Locked`, not
    /// `Mutex`, so that ThreadSanitizer sees the lock: HeraldStore's `Locked`).
    final class Gate: Sendable {
        private let state = Locked<(resumed: Bool, work: Task<Void, Never>?)>((false, nil))

        /// For the first caller only: the operation's task (nil if it is not set yet); nil after.
        func open() -> Task<Void, Never>?? {
            state.withLock { state in
                if state.resumed { return nil }
                state.resumed = true
                return .some(state.work)
            }
        }

        /// Records the operation's task; cancels it at once if the limit has already passed.
        func setWork(_ work: Task<Void, Never>) {
            let cancelNow = state.withLock { state in
                state.work = work
                return state.resumed
            }
            if cancelNow { work.cancel() }
        }
    }
}

/// Calls each registered action once its instant has passed, checking every `tick`. One task
/// does the watching, and only while something is registered: a request costs an insertion
/// and a removal under a lock, not a timer of its own. An action runs up to one tick late.
final class Watchdog: Sendable {
    /// The process's watchdog (every server in the process shares it).
    static let shared = Watchdog(tick: .milliseconds(10))

    struct Watch: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct State {
        var nextID: UInt64 = 0
        var pending: [UInt64: (at: ContinuousClock.Instant, action: @Sendable () -> Void)] = [:]
        var watching = false
    }

    /// `Locked`, not `Mutex`, so that ThreadSanitizer sees the lock (see `Locked`).
    private let state = Locked(State())
    let tick: Duration

    init(tick: Duration) {
        self.tick = tick
    }

    /// Registers `action` to run once `instant` has passed (unless removed first).
    func add(at instant: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Watch {
        let (id, start) = state.withLock { state in
            let id = state.nextID
            state.nextID &+= 1
            state.pending[id] = (instant, action)
            let start = !state.watching
            state.watching = true
            return (id, start)
        }
        if start {
            Task.detached { await self.watch() }
        }
        return Watch(id: id)
    }

    /// Unregisters a watch whose action has not run (removing one that ran does nothing).
    func remove(_ watch: Watch) {
        state.withLock { _ = $0.pending.removeValue(forKey: watch.id) }
    }

    /// How many actions wait (for tests).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    private func watch() async {
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let (due, done) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                var due: [@Sendable () -> Void] = []
                for (id, watch) in state.pending where watch.at <= now {
                    due.append(watch.action)
                    state.pending[id] = nil
                }
                if state.pending.isEmpty {
                    state.watching = false
                    return (due, true)
                }
                return (due, false)
            }
            for action in due { action() }
            if done { return }
        }
    }
}
#endif
