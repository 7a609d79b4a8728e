#if Server
@testable import HeraldServe
import Synchronization
import Testing

/// `Deadline` and its shared `Watchdog`: a call answers at its limit even when the operation
/// never returns, and a call that finishes leaves nothing behind for the watchdog.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
    @Test func anOperationThatNeverReturnsIsAnsweredAtTheLimitAndCancelled() async throws {
        let watchdog = Watchdog(tick: .milliseconds(5))
        let cancelled = Mutex(false)
        let started = ContinuousClock.now
        await #expect(throws: APIError.self) {
            _ = try await Deadline.run(within: .milliseconds(50), watchdog: watchdog) { () async throws -> Int in
                // Ignores cancellation the way a driver blocked on a socket does, but notes it.
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(2)) }
                cancelled.withLock { $0 = true }
                return 1
            }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        // The operation's task was cancelled (it sees it within a few of its 2 ms naps).
        for _ in 0..<500 where !cancelled.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
        #expect(cancelled.withLock { $0 })
        #expect(watchdog.pendingCount == 0)
    }

    @Test func theTimeoutIsAnAPIErrorNamedTimeout() async throws {
        let watchdog = Watchdog(tick: .milliseconds(5))
        do {
            _ = try await Deadline.run(within: .milliseconds(10), watchdog: watchdog) { () async throws -> Int in
                try? await Task.sleep(for: .seconds(5))
                return 1
            }
            Issue.record("a call past its limit returned")
        } catch let error as APIError {
            #expect(error.code == APIError.timeout.code)
            #expect(error.status == .serviceUnavailable)
        }
    }

    @Test func callsThatFinishInTimeReturnTheirValueOrErrorAndLeaveNoWatch() async throws {
        let watchdog = Watchdog(tick: .milliseconds(5))
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await Deadline.run(within: .seconds(30), watchdog: watchdog) { index * 2 }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(values.sorted() == (0..<200).map { $0 * 2 })
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await Deadline.run(within: .seconds(30), watchdog: watchdog) { () async throws -> Int in throw Refused() }
        }
        #expect(watchdog.pendingCount == 0)
    }

    @Test func theWatchdogStopsWatchingWhenNothingIsRegisteredAndStartsAgain() async throws {
        let watchdog = Watchdog(tick: .milliseconds(5))
        for round in 0..<3 {
            let fired = Mutex(0)
            let watches = (0..<10).map { index in
                watchdog.add(at: ContinuousClock.now.advanced(by: .milliseconds(index.isMultiple(of: 2) ? 20 : 60_000))) {
                    fired.withLock { $0 += 1 }
                }
            }
            for (index, watch) in watches.enumerated() where !index.isMultiple(of: 2) { watchdog.remove(watch) }
            for _ in 0..<1_000 where fired.withLock({ $0 }) < 5 { try await Task.sleep(for: .milliseconds(2)) }
            #expect(fired.withLock { $0 } == 5, "round \(round)")
            #expect(watchdog.pendingCount == 0)
        }
    }
}
#endif
