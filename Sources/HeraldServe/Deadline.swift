import Synchronization

/// Runs an operation with a time limit, answering at the limit even when the operation does not
/// stop at cancellation (a store call blocked in its driver): the operation runs in a task of its
/// own, and whichever of it and the timer finishes first resumes the caller.
enum Deadline {
    /// - Throws: `APIError.timeout` at the limit (the operation is cancelled), else what it throws.
    static func run<Value: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let gate = Gate()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let work = Task {
                let result: Result<Value, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                if gate.open() {
                    gate.cancelTimer()
                    continuation.resume(with: result)
                }
            }
            gate.setTimer(Task {
                do { try await Task.sleep(for: limit) } catch { return }
                if gate.open() {
                    work.cancel()
                    continuation.resume(throwing: APIError.timeout)
                }
            })
        }
    }

    /// Lets exactly one of the two tasks resume the continuation.
    final class Gate: Sendable {
        let state = Mutex<(resumed: Bool, timer: Task<Void, Never>?)>((false, nil))

        /// True for the first caller only.
        func open() -> Bool {
            state.withLock { state in
                if state.resumed { return false }
                state.resumed = true
                return true
            }
        }

        func setTimer(_ timer: Task<Void, Never>) {
            let cancelNow = state.withLock { state in
                state.timer = timer
                return state.resumed
            }
            if cancelNow { timer.cancel() }
        }

        func cancelTimer() {
            state.withLock { $0.timer }?.cancel()
        }
    }
}
