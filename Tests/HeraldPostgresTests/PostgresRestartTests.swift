#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldTestSupport
@testable import HeraldPostgres
import HeraldStore
import Synchronization
import Testing

/// The server goes away mid-run and comes back: the store says so clearly while it is gone and
/// recovers by itself, without being reopened. The test starts a cluster of its own
/// (scripts/postgres-test-server.sh), so restarting it disturbs no other test.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipNote))
struct PostgresRestartTests {
    @Test(.timeLimit(.minutes(3)))
    func theStoreRecoversByItselfAfterTheServerRestarts() async throws {
        let server = try await OwnServer.start()
        do {
            try await Self.decideThroughARestart(server)
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
    }

    private static func decideThroughARestart(_ server: OwnServer) async throws {
        var options = PostgresLedgerStore.Options()
        options.timeout = .seconds(5)
        let store = try await PostgresLedgerStore(url: server.url, options: options)
        let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: 100_000)), store: store)
        struct Outcome: Sendable {
            var recorded: [String] = []
            var unknown: [String] = []
            var errors: [StoreError] = []
            var other: [String] = []
            var recordedAfterRestart = 0
        }
        let restarted = Flag()
        let deciding = Task {
            var outcome = Outcome()
            var i = 0
            // Until 50 units have been recorded after the server came back (or 60 s).
            let giveUp = ContinuousClock.now + .seconds(60)
            while outcome.recordedAfterRestart < 50, ContinuousClock.now < giveUp {
                i += 1
                let request = PostgresFixtures.request(user: "u\(i % 4)", id: "k\(i)", at: PostgresFixtures.monday + i)
                do {
                    let result = try await recorder.decide(request, idempotencyKey: "r\(i)")
                    // A replay of a fresh key: the store ran the unit again after losing the
                    // answer to its COMMIT, and found that the first run had committed.
                    outcome.recorded += result.replayed ? ["u\(i % 4)/ping:k\(i)"] : result.recorded.map { "u\(i % 4)/\($0.key)" }
                    if restarted.isSet { outcome.recordedAfterRestart += 1 }
                } catch let error as StoreError {
                    outcome.errors.append(error)
                    if error.message.contains("may or may not be recorded") { outcome.unknown.append("u\(i % 4)/ping:k\(i)") }
                    try? await Task.sleep(for: .milliseconds(20))
                } catch {
                    outcome.other.append("\(error)")
                }
            }
            return outcome
        }
        // Let some units through, then stop the server for two seconds and start it again (long
        // enough for the deciding task to meet the stopped server even when the suites running
        // beside this one keep the cooperative pool busy).
        try await Task.sleep(for: .milliseconds(300))
        try await server.restart(pausing: 2)
        restarted.set()
        let outcome = await deciding.value

        #expect(outcome.other.isEmpty, "errors that are not StoreError: \(outcome.other.prefix(3))")
        #expect(!outcome.errors.isEmpty, "no unit met the stopped server")
        for error in outcome.errors {
            #expect([.unreachable, .databaseFailed].contains(error.code), "\(error.code): \(error.message)")
            #expect(error.message.contains("`\(store.location)`"), "\(error.message)")
        }
        #expect(outcome.recordedAfterRestart == 50, "the store did not recover: \(outcome.errors.suffix(2).map(\.message))")
        // Nothing lost, nothing doubled: every returned decision is in its user's ledger once,
        // and the ledger holds nothing else but units whose commit outcome was unknown.
        var ledger: [String] = []
        for user in 0 ..< 4 {
            ledger += try await store.entries(user: "u\(user)").map { "u\(user)/\($0.entry.key)" }
        }
        #expect(Set(ledger).count == ledger.count, "a key was recorded twice")
        #expect(Set(outcome.recorded).isSubset(of: Set(ledger)))
        #expect(Set(ledger).isSubset(of: Set(outcome.recorded + outcome.unknown)))
        await store.close()
    }
}

/// A flag set once, read from another task.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// A throwaway cluster of this test's own: `scripts/postgres-test-server.sh start|restart|stop`.
private struct OwnServer {
    let directory: String
    let url: String

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/postgres-test-server.sh").path

    static func start() async throws -> OwnServer {
        let directory = PostgresFixtures.temporaryDirectory().path
        let output = try await run(["start", directory])
        let exports = output.split(separator: "\n").compactMap { line -> (String, String)? in
            guard line.hasPrefix("export "), let equals = line.firstIndex(of: "=") else { return nil }
            let name = String(line[line.index(line.startIndex, offsetBy: 7) ..< equals])
            return (name, String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "'")))
        }
        let url = try #require(Dictionary(exports, uniquingKeysWith: { $1 })["HERALD_TEST_POSTGRES_URL"], "\(output)")
        return OwnServer(directory: directory, url: url)
    }

    func restart(pausing seconds: Int) async throws {
        _ = try await Self.run(["restart", directory, "\(seconds)"])
    }

    func stop() async throws {
        _ = try await Self.run(["stop", directory])
    }

    /// Runs the script; its standard output, or an error with its standard error (reaped with
    /// `waitpid`: `pg_ctl start` daemonizes a server beneath it, see ChildProcess).
    private static func run(_ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run("/bin/bash", [script] + arguments)
        let (status, text, message) = (result.status, result.stdout, result.stderr)
        guard status == 0 else {
            throw PostgresFixtures.FixtureError(message: "postgres-test-server.sh \(arguments.joined(separator: " ")) exited \(status): \(message)")
        }
        return text
    }
}
#endif
