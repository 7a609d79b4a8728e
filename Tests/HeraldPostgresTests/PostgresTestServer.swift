#if Server
import Foundation
@testable import HeraldPostgres
import PostgresNIO
import Testing

/// The PostgreSQL server the tests run against: `HERALD_TEST_POSTGRES_URL`
/// (scripts/postgres-test-server.sh starts one). Unset, the suites are skipped and say so;
/// with `CI=true`, `PostgresServerConfiguredTests` fails instead.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipNote: Comment = "skipped: HERALD_TEST_POSTGRES_URL unset (scripts/postgres-test-server.sh starts a server)"

    /// A new, empty database on the test server, dropped after `body`; its URL is passed on.
    static func withDatabase<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let url = try #require(url)
        let name = "herald_t_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        try await admin(url) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        let databaseURL = replacingDatabase(in: url, with: name)
        do {
            let result = try await body(databaseURL)
            try await drop(name, url: url)
            return result
        } catch {
            try? await drop(name, url: url)
            throw error
        }
    }

    /// Runs `body` on a connection of its own to the database `url` names.
    @discardableResult
    static func admin<Result>(_ url: String, _ body: (PostgresConnection, Logger) async throws -> Result) async throws -> Result {
        let location = try PostgresLocation(url: url)
        let logger = Logger(label: "herald.tests.postgres")
        let connection = try await PostgresConnection.connect(configuration: try location.configuration(), id: 0, logger: logger)
        do {
            let result = try await body(connection, logger)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func drop(_ name: String, url: String) async throws {
        try await admin(url) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
        }
    }

    static func replacingDatabase(in url: String, with name: String) -> String {
        var components = URLComponents(string: url)!
        components.percentEncodedPath = "/\(name)"
        return components.string!
    }
}

@Suite struct PostgresServerConfiguredTests {
    /// CI must run the PostgreSQL tests: a missing server fails the run there.
    @Test func theServerIsConfiguredInCI() {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(PostgresTestServer.url != nil, "CI=true but HERALD_TEST_POSTGRES_URL is unset: run scripts/postgres-test-server.sh")
        }
    }
}
#endif
