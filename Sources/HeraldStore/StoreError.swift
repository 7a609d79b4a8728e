/// A store failure, with a stable code and a one-line message naming the cause.
///
/// Codes (docs/store.md § Errors) never change; messages follow the diagnostics' style
/// (lowercase, no final period, user input in backticks).
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cause: a closed set.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The database file is not a database, or its pages are damaged.
        case corruptDatabase = "H0701"
        /// The server could not be reached, refused the connection or dropped it.
        case unreachable = "H0702"
        /// The database was written by a newer Herald: its schema has migrations this binary does not know.
        case schemaTooNew = "H0703"
        /// An event named a key no live entry of the user holds.
        case unknownKey = "H0704"
        /// A store URL that names no known store, or a store not built into this binary.
        case badURL = "H0705"
        /// The database refused an operation (permissions, a full disk, a constraint, a timeout).
        case databaseFailed = "H0706"
        /// A unit of work kept finding keys recorded outside what it read (never expected).
        case keyConflict = "H0707"
        /// A user id is empty.
        case missingUser = "H0708"
        /// A unit of work got the user's ledger after its caller's deadline, and recorded nothing.
        case deadlinePassed = "H0709"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `error[H0704]: no live entry of user `u1` has key `k``.
    public var description: String { "error[\(code.rawValue)]: \(message)" }

    public static func unknownKey(user: String, key: String) -> StoreError {
        StoreError(.unknownKey, "no live entry of user `\(user)` has key `\(key)`")
    }

    public static let missingUser = StoreError(.missingUser, "the request's `user.id` is empty: a store records by user")
}
