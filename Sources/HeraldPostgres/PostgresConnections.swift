internal import Logging
internal import PostgresNIO
internal import Synchronization

/// The store's connections: at most `limit` open at once, idle ones kept for the next unit of
/// work, broken ones dropped.
///
/// Not PostgresNIO's `PostgresClient`: its pool retries a failing connect in the background
/// and fails waiting callers only after a circuit breaker trips, without the cause; a store
/// must say at once that the URL is wrong, and why. A unit of work that finds its connection
/// broken gets a clear error; the next unit connects anew.
final class PostgresConnections: Sendable {
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
    private let state = Mutex(State())

    init(location: PostgresLocation, limit: Int, logger: Logger) throws {
        self.location = location
        var configuration = try location.configuration()
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        self.limit = max(1, limit)
        self.logger = logger
    }

    /// Runs `body` with a connection of its own; the connection goes back to the idle list
    /// unless it is closed or `body` failed with a connection error.
    func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            release(connection, reusable: !connection.isClosed)
            return result
        } catch {
            release(connection, reusable: !connection.isClosed && !Self.breaksConnection(error))
            throw error
        }
    }

    /// Closes the idle connections; units of work in flight finish on theirs, which are then
    /// closed as they come back.
    func close() async {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle {
            try? await connection.close()
        }
    }

    private func lease() async throws -> PostgresConnection {
        enum Step { case use(PostgresConnection), connect(Int), wait }
        while true {
            let step: Step = state.withLock { state in
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
                return connection
            case .connect(let id):
                do {
                    return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                } catch {
                    freeSlot()
                    throw Self.connectFailure(error, location: location.description)
                }
            case .wait:
                await withCheckedContinuation { continuation in
                    let resumeNow = state.withLock { state in
                        if state.open < limit || !state.idle.isEmpty { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    private func release(_ connection: PostgresConnection, reusable: Bool) {
        let (waiter, closeIt) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            let keep = reusable && !state.closed
            if keep {
                state.idle.append(connection)
            } else {
                state.open -= 1
            }
            return (state.waiters.isEmpty ? nil : state.waiters.removeFirst(), !keep)
        }
        if closeIt {
            // The connection must outlive its closing (PostgresNIO asserts it is closed when freed).
            let closing: EventLoopFuture<Void> = connection.close()
            closing.whenComplete { _ in withExtendedLifetime(connection) {} }
        }
        waiter?.resume()
    }

    private func freeSlot() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open -= 1
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        waiter?.resume()
    }

    private static func breaksConnection(_ error: any Error) -> Bool {
        if case .connectionLost = error as? PostgresStoreFailure { return true }
        guard let error = error as? PSQLError else { return false }
        // No server answer (the socket broke), or the server ending the session (57P01
        // admin_shutdown from pg_terminate_backend, 57P02, 57P03; class 08: connection exceptions).
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
