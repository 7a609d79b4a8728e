import Foundation
import HeraldContract
import HeraldEngine
import HeraldSQLite
import HeraldStore
import Testing

/// A process deciding in a loop is killed with SIGKILL: every decision it returned is in the
/// ledger, and nothing is half-written.
@Suite struct CrashTests {
    @Test func everyReturnedDecisionSurvivesSIGKILL() async throws {
        let child = try #require(StoreFixtures.builtBinary("HeraldStoreCrashChild"),
                                 "HeraldStoreCrashChild is built by `swift build --build-tests`")
        let directory = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A cap high enough that most triggers are recorded (the ledger grows while it is killed).
        try StoreFixtures.bundle(cap: 100_000).write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let db = directory.appendingPathComponent("ledger.db").path
        for round in 0 ..< 3 {
            let output = directory.appendingPathComponent("out\(round).txt")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: child)
            process.arguments = [directory.path, db, "u\(round)"]
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            try process.run()
            // Let it decide for a while, then kill it mid-loop.
            try await Task.sleep(for: .milliseconds(1500 + round * 250))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try handle.close()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        }
        // After restart: the file is whole, and every decision a child printed (a complete line:
        // it had returned) is in that user's ledger.
        #expect(try SQLiteProbe.scalar(path: db, sql: "PRAGMA integrity_check") == "ok")
        let store = try SQLiteLedgerStore(path: db)
        var entries = 0
        var printedTotal = 0
        for round in 0 ..< 3 {
            let text = try String(contentsOf: directory.appendingPathComponent("out\(round).txt"), encoding: .utf8)
            var printed: Set<String> = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                guard let json = try? JSON.parse(String(line)), let key = json["key"]?.stringValue else { continue }
                #expect(json["action"]?.stringValue == "schedule")
                printed.insert(key)
            }
            printedTotal += printed.count
            let ledger = try await store.entries(user: "u\(round)")
            entries += ledger.count
            let recorded = Set(ledger.map(\.entry.key))
            #expect(printed.isSubset(of: recorded))
            // At most the one unit in flight when it was killed committed without being printed.
            #expect(recorded.count - printed.count <= 1)
        }
        #expect(printedTotal > 20, "the children decided too few times to test anything")
        // Nothing half-written: each unit wrote its entry and its stored response together.
        let responses = try #require(Int(SQLiteProbe.scalar(path: db, sql: "SELECT count(*) FROM response") ?? ""))
        #expect(responses == entries)
        let orphans = try SQLiteProbe.scalar(path: db, sql: """
            SELECT count(*) FROM response r WHERE NOT EXISTS (
              SELECT 1 FROM entry e WHERE e.user = r.user AND e.key = 'ping:n' || substr(r.request_key, 2))
            """)
        #expect(orphans == "0")
    }
}
