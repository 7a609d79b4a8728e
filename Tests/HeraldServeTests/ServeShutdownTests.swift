#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldSQLite
import HeraldStore
import Testing

/// `herald serve` as a process: SIGTERM stops accepting connections, answers every request already
/// in flight, closes the store and exits 0.
@Suite(.serialized) struct ServeShutdownTests {
    static let inFlight = 6

    @Test func sigtermDrainsInFlightRequestsAndClosesTheStore() async throws {
        let binary = try #require(ServeProcess.heraldBinary, "the herald binary is built beside the tests")
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = directory + "/ledger.db"
        let server = try ServeProcess(binary: binary, arguments: [
            // Half-sent bodies wait through the drain: a read timeout longer than the test.
            "serve", directory + "/policies", "--store", "sqlite:" + database, "--listen", "127.0.0.1:0", "--read-timeout", "300",
        ])
        defer { server.kill() }
        let port = try await server.waitForPort()

        // Requests in flight: each connection answers a probe first (it is accepted and served),
        // then sends a decide's head and half its body, and waits.
        var connections: [(socket: RawSocket, rest: String, user: String)] = []
        for index in 0..<Self.inFlight {
            let socket = try RawSocket(port: port)
            try socket.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try socket.readResponse().status == 200)
            let user = "u-drain-\(index)"
            let body = Array(try ServeFixtures.dueToday(user: user).utf8)
            let half = body.count / 2
            try socket.send("POST /v1/policies/handz/decide HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
            try socket.send(bytes: Array(body[..<half]))
            connections.append((socket, String(decoding: body[half...], as: UTF8.self), user))
        }
        // The server must have read every head before SIGTERM: a connection whose head it has not
        // read yet is idle to it, and a quiescing server closes idle connections (with the whole
        // suite running on two cores, 500 ms was once not enough: "closed after 0 bytes").
        try await Task.sleep(for: .seconds(3))

        server.terminate()
        // Shutdown has begun once new connections are refused.
        let refused = try await ServeProcess.poll(seconds: 30) { (try? RawSocket(port: port)) == nil }
        #expect(refused, "the server kept accepting connections after SIGTERM")
        #expect(server.isRunning, "the server exited with requests in flight")

        var keys: [String: String] = [:]
        for connection in connections {
            try connection.socket.send(connection.rest)
            let response = try connection.socket.readResponse()
            #expect(response.status == 200, "\(response.body)")
            let json = try JSON.parse(response.body)
            #expect(json["action"]?.stringValue == "schedule")
            keys[connection.user] = json["key"]?.stringValue
        }
        let exited = try await ServeProcess.poll(seconds: 60) { !server.isRunning }
        #expect(exited, "the server did not exit after draining")
        #expect(server.terminationStatus == 0)
        #expect(server.stderr.contains("store closed"), "\(server.stderr)")
        // The store was closed for real: the log was checkpointed into the file and removed.
        #expect(!FileManager.default.fileExists(atPath: database + "-wal"))

        // Every answered decision is in the ledger.
        let store = try SQLiteLedgerStore(path: database)
        for connection in connections {
            let entries = try await store.entries(user: connection.user)
            #expect(entries.map(\.entry.key) == [keys[connection.user] ?? "-"], "\(connection.user)")
        }
        await store.close()
    }

    @Test func sigtermWhenIdleExitsZero() async throws {
        let binary = try #require(ServeProcess.heraldBinary, "the herald binary is built beside the tests")
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeProcess(binary: binary, arguments: ["serve", directory + "/policies", "--store", "memory:", "--listen", "127.0.0.1:0"])
        defer { server.kill() }
        _ = try await server.waitForPort()
        server.terminate()
        let exited = try await ServeProcess.poll(seconds: 60) { !server.isRunning }
        #expect(exited)
        #expect(server.terminationStatus == 0)
        #expect(server.stderr.contains("store closed"))
    }
}
#endif
