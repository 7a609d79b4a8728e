#if Server
internal import Logging
internal import PostgresNIO
internal import HeraldStore
internal import Synchronization

/// The store's connections: at most `limit` open at once, idle ones kept for the next unit of
/// work, broken ones dropped.
///
/// Not PostgresNIO's `PostgresClient`: its pool retries a failing connect in the background
/// and fails waiting callers only after a circuit breaker trips, without the cause; a store
/// must say at once that the URL is wrong, and why. A unit of work that finds its connection
/// broken gets a clear error; the next unit connects anew.
final class PostgresConnections: Sendable {
    /// A connection lent to one unit of work. It goes back exactly once — by the unit when it
    /// ends, or by the unit's deadline when the unit is stuck (`PostgresDeadline`) — so a slot is
    /// never freed twice and never leaked.
    final class Lease: Sendable {
        let connection: PostgresConnection
        fileprivate let returned = Atomic<Bool>(false)

        fileprivate init(_ connection: PostgresConnection) {
            self.connection = connection
        }
    }

    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var nextID = 0
        var closed = false
    }

    let location: PostgresLocation
    private let configuration: PostgresConnection.Configuration
    private let limit: Int
    private let logger: Logger
    private let state = Locked(State())

    init(location: PostgresLocation, limit: Int, connectTimeout: Duration, logger: Logger) throws {
        self.location = location
        var configuration = try location.configuration()
        configuration.options.connectTimeout = PostgresDeadline.timeAmount(connectTimeout)
        self.configuration = configuration
        self.limit = max(1, limit)
        self.logger = logger
    }

    /// A connection of the caller's own: an idle one, a new one while fewer than `limit` are
    /// open, or the next one given back. The wait has no bound of its own: the unit of work's
    /// deadline bounds it (`PostgresDeadline`).
    /// - Throws: `PostgresStoreFailure.unreachable` (or the server's refusal) when a new
    ///   connection cannot be made; `.closed` after `close()`.
    func lease() async throws -> Lease {
        enum Step { case use(PostgresConnection), connect(Int), wait, closed }
        while true {
            let step: Step = state.withLock { state in
                if state.closed { return .closed }
                while let connection = state.idle.popLast() {
                    if !connection.isClosed { return .use(connection) }
                    state.open -= 1
                }
                if state.open < limit {
                    state.open += 1
                    state.nextID += 1
                    return .connect(state.nextID)
                }
                return .wait
            }
            switch step {
            case .use(let connection):
                return Lease(connection)
            case .closed:
                throw PostgresStoreFailure.closed
            case .connect(let id):
                do {
                    return Lease(try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger))
                } catch {
                    freeSlot()
                    throw Self.connectFailure(error, location: location.description)
                }
            case .wait:
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.closed || state.open < limit || !state.idle.isEmpty { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    /// An idle connection, if one is at hand (no waiting, no connecting).
    func idleLease() -> Lease? {
        state.withLock { state in
            if state.closed { return nil }
            while let connection = state.idle.popLast() {
                if !connection.isClosed { return Lease(connection) }
                state.open -= 1
            }
            return nil
        }
    }

    /// Gives `lease` back: to the idle list when `reusable` (and the connection is open), else
    /// closed. A second call for one lease does nothing.
    func release(_ lease: Lease, reusable: Bool) {
        guard lease.returned.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        let connection = lease.connection
        let (waiter, closeIt) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            let keep = reusable && !state.closed && !connection.isClosed
            if keep {
                state.idle.append(connection)
            } else {
                state.open -= 1
            }
            return (state.waiters.isEmpty ? nil : state.waiters.removeFirst(), !keep)
        }
        if closeIt { Self.close(connection) }
        waiter?.resume()
    }

    /// Closes the idle connections: after one connection was lost the others may be dead too
    /// (the server restarted), and a unit run again must not pick a dead one.
    func discardIdle() {
        let (idle, waiters) = state.withLock { state in
            defer {
                state.open -= state.idle.count
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for connection in idle { Self.close(connection) }
        for waiter in waiters { waiter.resume() }
    }

    /// Closes the idle connections and refuses new leases; units of work in flight finish on
    /// theirs, which are then closed as they come back.
    func close() async {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer {
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.resume() }
        for connection in idle {
            try? await connection.close()
        }
    }

    private static func close(_ connection: PostgresConnection) {
        // The connection must outlive its closing (PostgresNIO asserts it is closed when freed).
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private func freeSlot() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open -= 1
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        waiter?.resume()
    }

    /// Whether `error` leaves the connection unusable: no server answer (the socket broke), or
    /// the server ending the session (57P01 admin_shutdown from pg_terminate_backend, 57P02,
    /// 57P03; class 08: connection exceptions).
    static func breaksConnection(_ error: any Error) -> Bool {
        if case .connectionLost = error as? PostgresStoreFailure { return true }
        guard let error = error as? PSQLError else { return false }
        guard let state = error.serverInfo?[.sqlState] else { return true }
        return state.hasPrefix("57P") || state.hasPrefix("08")
    }

    /// A failed connect in words: the server's own message (authentication, no such database)
    /// when it answered, else what the socket said.
    private static func connectFailure(_ error: any Error, location: String) -> PostgresStoreFailure {
        let failure = PostgresStoreFailure.from(error, location: location)
        switch failure {
        case .authentication, .noDatabase, .server:
            return failure
        default:
            let cause = (error as? PSQLError).flatMap { $0.underlying.map { "\($0)" } } ?? "\(error)"
            return .unreachable(location: location, cause: cause)
        }
    }
}
#endif
