#if Server
internal import Foundation
internal import PostgresNIO

/// Where a PostgreSQL ledger lives, read from a `postgres://` URL (libpq's URI form).
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`, or
/// `postgres://USER@/DATABASE?host=/run/postgresql` for a Unix socket (the directory, as libpq
/// reads it; the socket is `.s.PGSQL.PORT` inside). `postgresql://` is the same. User and
/// password are percent-decoded. The password never appears in `description` or in an error.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    public var host: String?
    public var socketDirectory: String?
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// Reads a `postgres://` URL.
    ///
    /// - Throws: `PostgresStoreFailure.badURL` naming what is wrong (never echoing a password).
    public init(url: String) throws {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw PostgresStoreFailure.badURL(reason: "it does not start with `postgres://` or `postgresql://`")
        }
        guard let components = URLComponents(string: url) else {
            throw PostgresStoreFailure.badURL(reason: "it is not a valid URL")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            query[item.name] = item.value ?? ""
        }
        let unknown = query.keys.filter { !["sslmode", "host", "user", "password", "port"].contains($0) }.sorted()
        if let first = unknown.first {
            throw PostgresStoreFailure.badURL(reason: "unknown parameter `\(first)` (known: sslmode, host, user, password, port)")
        }
        let host = components.percentEncodedHost.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        if let directory = query["host"], directory.hasPrefix("/") {
            socketDirectory = directory
            self.host = nil
        } else if let name = query["host"] ?? host {
            self.host = name
            socketDirectory = nil
        } else {
            throw PostgresStoreFailure.badURL(reason: "no host (write `postgres://user@host/database`, or `?host=/socket/directory`)")
        }
        if let text = query["port"] {
            guard let value = Int(text) else {
                throw PostgresStoreFailure.badURL(reason: "port `\(text)` is not a number")
            }
            port = value
        } else {
            port = components.port ?? 5432
        }
        guard (1...65535).contains(port) else {
            throw PostgresStoreFailure.badURL(reason: "port \(port) is out of range 1-65535")
        }
        guard let user = query["user"] ?? components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw PostgresStoreFailure.badURL(reason: "no user (write `postgres://user@host/database`)")
        }
        self.user = user
        password = query["password"] ?? components.percentEncodedPassword?.removingPercentEncoding
        let path = components.percentEncodedPath.drop { $0 == "/" }
        guard !path.isEmpty, let database = String(path).removingPercentEncoding, !database.contains("/") else {
            throw PostgresStoreFailure.badURL(reason: "no database name (write `postgres://user@host/database`)")
        }
        self.database = database
        let mode = query["sslmode"] ?? "prefer"
        switch mode {
        case "disable": tls = .disable
        case "allow", "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        default:
            throw PostgresStoreFailure.badURL(reason: "sslmode `\(mode)` is not one of disable, prefer, require")
        }
    }

    /// The URL without its password.
    public var description: String {
        let place = socketDirectory.map { "?host=\($0)" } ?? ""
        let server = host.map { "\($0):\(port)" } ?? ""
        return "postgres://\(user)@\(server)/\(database)\(place)"
    }

    func configuration() throws -> PostgresConnection.Configuration {
        if let socketDirectory {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)",
                username: user, password: password, database: database
            )
        }
        let tlsConfiguration: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable:
            tlsConfiguration = .disable
        case .prefer:
            tlsConfiguration = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require:
            tlsConfiguration = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return PostgresConnection.Configuration(
            host: host ?? "localhost", port: port, username: user, password: password,
            database: database, tls: tlsConfiguration
        )
    }
}
#endif
