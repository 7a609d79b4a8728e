#if Server
internal import PostgresNIO

/// What went wrong talking to PostgreSQL, before it becomes the store's error (one mapping, in
/// `PostgresLedgerStore`): the cause in words a person can act on, never a password.
enum PostgresStoreFailure: Error, Sendable, Equatable {
    /// The URL cannot be read.
    case badURL(reason: String)
    /// No connection could be made: refused, unknown host, timed out, TLS refused.
    case unreachable(location: String, cause: String)
    /// The server refused the user or password (SQLSTATE 28000, 28P01).
    case authentication(location: String, message: String)
    /// The database does not exist (SQLSTATE 3D000).
    case noDatabase(location: String, message: String)
    /// The database was migrated by a newer Herald.
    case schemaTooNew(found: Int, known: Int)
    /// The connection broke during a unit of work. `outcomeUnknown` is true when it broke while
    /// committing: the unit may or may not be recorded (retrying with the same idempotency key
    /// is safe either way).
    case connectionLost(cause: String, outcomeUnknown: Bool)
    /// Serialization failures or deadlocks on every attempt.
    case contention(attempts: Int, message: String)
    /// Any other error the server reported.
    case server(sqlState: String, message: String)
    /// A unit of work outlived its deadline (`PostgresLedgerStore.Options.timeout`) in `phase`;
    /// its connection was closed.
    case timedOut(after: Duration, phase: UnitPhase)
    /// The store was closed (`PostgresLedgerStore.close()`).
    case closed

    /// How far a unit of work got when its deadline passed.
    enum UnitPhase: Sendable, Equatable {
        /// No connection became free (or could be made): nothing was sent.
        case waiting
        /// `COMMIT` was not sent: the server rolls the unit back.
        case running
        /// `COMMIT` was sent and not answered: the unit may or may not be recorded.
        case committing
    }

    /// Whether the unit of work may simply run again (SQLSTATE 40001 serialization_failure,
    /// 40P01 deadlock_detected).
    static func isRetryable(_ error: any Error) -> Bool {
        guard let state = sqlState(of: error) else { return false }
        return state == "40001" || state == "40P01"
    }

    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Classifies an error from PostgresNIO. `committing` says the error came from `COMMIT`.
    static func from(_ error: any Error, location: String, committing: Bool = false) -> PostgresStoreFailure {
        if let failure = error as? PostgresStoreFailure { return failure }
        guard let error = error as? PSQLError else {
            return .unreachable(location: location, cause: "\(error)")
        }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?????"
            let message = info[.message] ?? "no message"
            switch state {
            case "28000", "28P01": return .authentication(location: location, message: message)
            case "3D000": return .noDatabase(location: location, message: message)
            // admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now
            case "57P01", "57P02", "57P03": return .connectionLost(cause: message, outcomeUnknown: committing)
            // Class 08: connection exceptions.
            case _ where state.hasPrefix("08"): return .connectionLost(cause: message, outcomeUnknown: committing)
            default: return .server(sqlState: state, message: message)
            }
        }
        let cause = error.underlying.map { "\($0)" } ?? error.code.description
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return .connectionLost(cause: "the server closed the connection (\(cause))", outcomeUnknown: committing)
        case .connectionError:
            return .connectionLost(cause: cause, outcomeUnknown: committing)
        // PostgresNIO closes the connection on a message out of turn or one it cannot decode:
        // seen when `pg_terminate_backend`'s FATAL error arrives between a unit's statements
        // (PostgresConcurrencyTests.aConnectionKilledMidRunIsAClearErrorAndLosesNoEntry, in CI).
        case .unexpectedBackendMessage, .messageDecodingFailure:
            return .connectionLost(cause: "the connection broke: \(cause)", outcomeUnknown: committing)
        default:
            return .server(sqlState: "", message: "\(error.code): \(cause)")
        }
    }
}
#endif
