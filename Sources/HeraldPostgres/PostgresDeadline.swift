#if Server
internal import Logging
internal import PostgresNIO
internal import HeraldStore

/// The deadline of one unit of work (`PostgresLedgerStore.Options.timeout`): it bounds the wait
/// for a connection, the connect and every statement, and when it passes the call fails at once,
/// saying how far the unit got.
///
/// Why every wait goes through the deadline: a PostgresNIO query written to a channel whose
/// handlers are already gone (the server dropped the connection a moment before) is never
/// answered, so an `await` on it would hold the unit, and its caller, forever. The unit waits on
/// a continuation that either the statement's completion or the deadline resumes, once. When the deadline wins it closes the unit's connection (the server rolls back
/// whatever the unit had not committed) and gives the slot back; a task stuck on such a query is
/// left suspended, holding nothing but the closed connection.
///
/// The unit calls `willCommit()` just before sending `COMMIT`: once the deadline has passed it
/// refuses, so a unit whose caller was told "rolled back" can never commit later. Cancelling the
/// caller's task ends the unit the same way.
final class PostgresDeadline: Sendable {
    private enum Phase { case waiting, running, committing }

    private struct State {
        var phase = Phase.waiting
        /// Set when the deadline passed (or the caller was cancelled): what every wait throws.
        var expired: (any Error)?
        var lease: PostgresConnections.Lease?
        /// The wait in progress: failing it resumes the unit.
        var pending: (@Sendable (any Error) -> Void)?
    }

    private let state = Locked(State())
    private let connections: PostgresConnections

    private init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// Runs `body` with a connection of its own from `connections`, within `timeout`. The
    /// connection goes back to the idle list afterwards unless it broke.
    /// - Throws: what `body` throws, or `PostgresStoreFailure.timedOut` saying how far the unit
    ///   got (no connection yet, rolled back, or committing: the outcome unknown).
    static func run<Result>(
        connections: PostgresConnections, timeout: Duration,
        _ body: (PostgresConnection, PostgresDeadline) async throws -> Result
    ) async throws -> Result {
        let deadline = PostgresDeadline(connections: connections)
        // A timer on an event loop, not a sleeping task: cheaper to start and cancel per unit.
        let timer = PostgresConnection.defaultEventLoopGroup.any().scheduleTask(in: timeAmount(timeout)) {
            deadline.expire { phase in PostgresStoreFailure.timedOut(after: timeout, phase: phase) }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            let lease = try await deadline.lease()
            do {
                let result = try await body(lease.connection, deadline)
                connections.release(lease, reusable: true)
                return result
            } catch {
                connections.release(lease, reusable: !PostgresConnections.breaksConnection(error))
                // After the deadline the unit's own error is a consequence (a closed connection).
                throw deadline.state.withLock { $0.expired } ?? error
            }
        } onCancel: {
            deadline.expire { _ in CancellationError() }
        }
    }

    /// Sends `query` unless the connection is already closed (see the type's note) and returns
    /// its rows (a unit's statements return a few), within the deadline. The rows are collected
    /// by PostgresNIO's future-based call, whose completion resumes the unit straight from the
    /// event loop: no task of its own per statement.
    @discardableResult
    func query(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [PostgresRow] {
        guard !connection.isClosed else {
            throw PostgresStoreFailure.connectionLost(cause: "the server closed the connection", outcomeUnknown: false)
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[PostgresRow], any Error>) in
            let once = Once(continuation)
            guard register(once) else { return }
            let result: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
            result.whenComplete { outcome in
                once.take()?.resume(with: outcome.map(\.rows))
            }
        }
    }

    /// Runs a named prepared statement (parsed by the server once per connection: later calls
    /// send only Bind and Execute) and returns its rows, within the deadline. PostgresNIO runs
    /// prepared statements only through an async call, so it runs in a task of its own that the
    /// deadline can leave behind (see the type's note).
    func execute<Statement: PostgresPreparedStatement>(
        _ statement: Statement, on connection: PostgresConnection, logger: Logger
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        guard !connection.isClosed else {
            throw PostgresStoreFailure.connectionLost(cause: "the server closed the connection", outcomeUnknown: false)
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Statement.Row], any Error>) in
            let once = Once(continuation)
            guard register(once) else { return }
            Task {
                do {
                    var rows: [Statement.Row] = []
                    for try await row in try await connection.execute(statement, logger: logger) {
                        rows.append(row)
                    }
                    once.take()?.resume(returning: rows)
                } catch {
                    once.take()?.resume(throwing: error)
                }
            }
        }
    }

    /// Called by the unit just before `COMMIT`.
    /// - Throws: the deadline's error when it has passed (the unit must not commit).
    func willCommit() throws {
        try state.withLock { state in
            if let expired = state.expired { throw expired }
            state.phase = .committing
        }
    }

    private func lease() async throws -> PostgresConnections.Lease {
        let connections = self.connections
        let lease: PostgresConnections.Lease
        if let idle = connections.idleLease() {
            lease = idle
        } else {
            // Connecting, or waiting for a connection to come back: in a task of its own, so the
            // deadline can end the wait; a lease that arrives after that goes straight back.
            lease = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnections.Lease, any Error>) in
                let once = Once(continuation)
                guard register(once) else { return }
                Task {
                    do {
                        let lease = try await connections.lease()
                        if let continuation = once.take() {
                            continuation.resume(returning: lease)
                        } else {
                            connections.release(lease, reusable: true)
                        }
                    } catch {
                        once.take()?.resume(throwing: error)
                    }
                }
            }
        }
        let attached = state.withLock { state -> Bool in
            guard state.expired == nil else { return false }
            state.lease = lease
            state.phase = .running
            return true
        }
        if !attached {
            connections.release(lease, reusable: true)
            throw state.withLock { $0.expired } ?? CancellationError()
        }
        return lease
    }

    /// Makes `once` the wait the deadline fails; false (and `once` failed) when it already passed.
    private func register<Value: Sendable>(_ once: Once<Value>) -> Bool {
        let expired = state.withLock { state -> (any Error)? in
            if let expired = state.expired { return expired }
            state.pending = { error in once.take()?.resume(throwing: error) }
            return nil
        }
        if let expired {
            once.take()?.resume(throwing: expired)
            return false
        }
        return true
    }

    /// `duration` as NIO's time unit.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// A continuation resumed by whichever of two parties comes first.
    private final class Once<Value: Sendable>: Sendable {
        private let continuation: Locked<CheckedContinuation<Value, any Error>?>

        init(_ continuation: CheckedContinuation<Value, any Error>) {
            self.continuation = Locked(continuation)
        }

        func take() -> CheckedContinuation<Value, any Error>? {
            continuation.withLock { $0.take() }
        }
    }

    private func expire(_ error: (PostgresStoreFailure.UnitPhase) -> any Error) {
        let (lease, pending, failure) = state.withLock { state
            -> (PostgresConnections.Lease?, (@Sendable (any Error) -> Void)?, (any Error)?) in
            guard state.expired == nil else { return (nil, nil, nil) }
            let phase: PostgresStoreFailure.UnitPhase = switch state.phase {
            case .waiting: .waiting
            case .running: .running
            case .committing: .committing
            }
            let failure = error(phase)
            state.expired = failure
            defer {
                state.lease = nil
                state.pending = nil
            }
            return (state.lease, state.pending, failure)
        }
        guard let failure else { return }
        // Closing the connection fails the unit's statement in flight and makes the server roll
        // the transaction back; the slot is free at once.
        if let lease { connections.release(lease, reusable: false) }
        pending?(failure)
    }
}
#endif
