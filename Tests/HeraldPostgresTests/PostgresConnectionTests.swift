#if Server
import Foundation
@testable import HeraldPostgres
import HeraldStore
import PostgresNIO
import Testing

/// URLs, the schema's versions, and what a wrong URL says.
@Suite struct PostgresLocationTests {
    @Test func readsTheURLForms() throws {
        let tcp = try PostgresLocation(url: "postgres://herald:s%40cret@db.example:6543/ledger?sslmode=require")
        #expect(tcp.host == "db.example")
        #expect(tcp.port == 6543)
        #expect(tcp.user == "herald")
        #expect(tcp.password == "s@cret")
        #expect(tcp.database == "ledger")
        #expect(tcp.tls == .require)
        #expect(tcp.description == "postgres://herald@db.example:6543/ledger")
        let socket = try PostgresLocation(url: "postgresql://me@/ledger?host=/run/postgresql")
        #expect(socket.socketDirectory == "/run/postgresql")
        #expect(socket.port == 5432)
        #expect(socket.tls == .prefer)
    }

    @Test(arguments: [
        ("postgres://db.example/ledger", "no user"),
        ("postgres://me@db.example", "no database name"),
        ("postgres://me@db.example:99999/ledger", "port 99999 is out of range"),
        ("postgres://me@db.example/ledger?sslmode=maybe", "sslmode `maybe`"),
        ("postgres://me@db.example/ledger?colour=blue", "unknown parameter `colour`"),
        ("mysql://me@db.example/ledger", "does not start with `postgres://`"),
    ])
    func aURLThatCannotBeReadSaysWhy(url: String, says: String) async throws {
        let error = await #expect(throws: StoreError.self) { try await PostgresLedgerStore(url: url) }
        #expect(error?.code == .badURL)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }
}

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipNote))
struct PostgresConnectionTests {
    /// These tests check how a refusal is told, not how long a unit may wait: with the whole
    /// suite running on two cores the store's default 10 s deadline once passed before the
    /// refusal was read (the error was then the deadline's, H0706), so they wait longer.
    static var patient: PostgresLedgerStore.Options {
        var options = PostgresLedgerStore.Options()
        options.timeout = .seconds(600)
        options.connectTimeout = .seconds(600)
        return options
    }

    @Test func aServerThatIsNotThereIsAClearErrorNamingIt() async throws {
        // Port 1 on the loopback: nothing listens there; the connection is refused at once.
        let error = await #expect(throws: StoreError.self) {
            try await PostgresLedgerStore(url: "postgres://herald:pw@127.0.0.1:1/herald_test?sslmode=disable", options: Self.patient)
        }
        #expect(error?.code == .unreachable)
        #expect(error?.message.hasPrefix("cannot connect to PostgreSQL at `postgres://herald@127.0.0.1:1/herald_test`") == true,
                "\(error?.message ?? "")")
        #expect(error?.message.contains("pw") == false)
    }

    @Test func aWrongPasswordOrDatabaseIsAClearError() async throws {
        let url = try #require(PostgresTestServer.url)
        var wrongPassword = try #require(URLParts(url))
        wrongPassword.password = "not-the-password"
        let login = await #expect(throws: StoreError.self) { try await PostgresLedgerStore(url: wrongPassword.string, options: Self.patient) }
        #expect(login?.code == .unreachable)
        #expect(login?.message.contains("refused the login") == true, "\(login?.message ?? "")")
        #expect(login?.message.contains("not-the-password") == false)

        let noDatabase = PostgresTestServer.replacingDatabase(in: url, with: "herald_no_such_database")
        let missing = await #expect(throws: StoreError.self) { try await PostgresLedgerStore(url: noDatabase, options: Self.patient) }
        #expect(missing?.code == .unreachable)
        #expect(missing?.message.contains("herald_no_such_database") == true, "\(missing?.message ?? "")")
    }

    @Test func migratesAnEmptyDatabaseOnceEvenWhenManyOpenItAtOnce() async throws {
        try await PostgresTestServer.withDatabase { url in
            let stores = try await withThrowingTaskGroup(of: PostgresLedgerStore.self) { group in
                for _ in 0 ..< 4 { group.addTask { try await PostgresLedgerStore(url: url) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for store in stores { await store.close() }
            let versions = try await PostgresTestServer.admin(url) { connection, logger in
                try await connection.query("SELECT version, name FROM herald_migrations ORDER BY version", logger: logger)
                    .decode((Int, String).self).reduce(into: []) { $0.append("\($1.0) \($1.1)") }
            }
            #expect(versions == ["1 ledger", "2 unit-functions", "3 unit-versions"])
            #expect(PostgresSchema.currentVersion == 3)
        }
    }

    @Test func anOlderBinaryRefusesANewerSchemaAndWritesNothing() async throws {
        try await PostgresTestServer.withDatabase { url in
            try await PostgresLedgerStore(url: url).close()
            try await PostgresTestServer.admin(url) { connection, logger in
                try await connection.query("INSERT INTO herald_migrations (version, name) VALUES (4, 'from-the-future')", logger: logger)
            }
            let error = await #expect(throws: StoreError.self) { try await PostgresLedgerStore(url: url) }
            #expect(error?.code == .schemaTooNew)
            #expect(error?.message.contains("schema version 4, newer than this binary's 3: upgrade herald") == true,
                    "\(error?.message ?? "")")
        }
    }
}

/// A URL's password, replaced (tests only).
private struct URLParts {
    var components: URLComponents
    var password: String? {
        get { components.password }
        set { components.password = newValue }
    }
    var string: String { components.string ?? "" }

    init?(_ url: String) {
        guard let components = URLComponents(string: url) else { return nil }
        self.components = components
    }
}
#endif
