#if Server
import Foundation
import HeraldContract
import HeraldEngine
@testable import HeraldPostgres
import HeraldStore
import PostgresNIO
import Testing

/// Many deciders for one user — tasks of one process, and two OS processes — against one
/// database: no hard cap exceeded and no key recorded twice, checked from the ledger; and
/// connections killed mid-run.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipNote), .serialized)
struct PostgresConcurrencyTests {
    static let cap = 50
    /// 1,000 by default; `HERALD_TEST_POSTGRES_TRIGGERS=10000` runs the figure (an even
    /// number ≥ 400: the checks need the cap reached on many days). One user's units are serialized
    /// by its row lock, and on this machine they commit at about 14 a second (measured; not yet
    /// explained, see docs/store.md), so 10,000 triggers take some 12 minutes per test.
    static let triggers = ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_TRIGGERS"].flatMap(Int.init) ?? 1_000

    /// Trigger i: a `ping` with id `n(i % 8000)` (2,000 ids come back some 55 days later, when
    /// their first entry is far outside the read window), every 10 minutes (144 a day against a
    /// cap of 50), idempotency key `req-(i % 9000)` (the last 1,000 are replays).
    static func trigger(_ i: Int) -> (DecisionRequest, String) {
        (PostgresFixtures.request(user: "u1", id: "n\(i % 8000)", at: PostgresFixtures.monday + i * 600), "req-\(i % 9000)")
    }

    @Test func sixteenTasksDecidingForOneUserNeverExceedTheCapNorRecordAKeyTwice() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await PostgresLedgerStore(url: url)
            let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: Self.cap)), store: store)
            let scheduled = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0 ..< 16 {
                    group.addTask {
                        var scheduled = 0
                        for i in stride(from: task, to: Self.triggers, by: 16) {
                            let (request, key) = Self.trigger(i)
                            let result = try await recorder.decide(request, idempotencyKey: key)
                            if !result.replayed, result.decisions.contains(where: { $0.action == .schedule }) { scheduled += 1 }
                        }
                        return scheduled
                    }
                }
                return try await group.reduce(0, +)
            }
            try await Self.checkLedger(store, scheduled: scheduled)
            await store.close()
        }
    }

    @Test func twoProcessesSharingOneDatabaseNeverExceedTheCapNorRecordAKeyTwice() async throws {
        let binary = try #require(PostgresFixtures.loadBinary, "herald-ledger-load was not built (swift build --build-tests)")
        let policy = try PostgresFixtures.bundleDirectory(PostgresFixtures.bundle(cap: Self.cap))
        defer { try? FileManager.default.removeItem(at: policy) }
        try await PostgresTestServer.withDatabase { url in
            // Migrate first, so the processes race on units of work, not on the schema.
            let store = try await PostgresLedgerStore(url: url)
            let processes = try (0 ..< 2).map { index in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = ["--policy", policy.path, "--store", url, "--user", "u1", "--triggers", "\(Self.triggers)",
                                     "--shard", "\(index)/2", "--start", "\(PostgresFixtures.monday)", "--spacing", "600",
                                     "--keys", "8000", "--requests", "9000"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                return (process, output)
            }
            var scheduled = 0
            for (process, output) in processes {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
                #expect(process.terminationStatus == 0, "\(summary)")
                #expect(summary["failed"] as? Int == 0, "\(summary)")
                #expect(summary["decided"] as? Int == Self.triggers / 2)
                scheduled += summary["scheduled"] as? Int ?? 0
            }
            try await Self.checkLedger(store, scheduled: scheduled)
            await store.close()
        }
    }

    /// The ledger after a run: every scheduled decision is there once, no UTC day holds more
    /// entries than the cap, and the cap was reached (the run contended for it).
    static func checkLedger(_ store: PostgresLedgerStore, scheduled: Int) async throws {
        let ledger = try await store.entries(user: "u1")
        #expect(ledger.count == scheduled)
        let keys = ledger.map(\.entry.key)
        #expect(Set(keys).count == keys.count, "a key was recorded twice")
        var perDay: [Int: Int] = [:]
        for record in ledger { perDay[record.entry.deliverAt / 86_400, default: 0] += 1 }
        #expect(perDay.values.max() == cap, "days over the cap: \(perDay.filter { $0.value > cap })")
        #expect(ledger.count >= triggers / 5)
    }

    /// Backends killed with `pg_terminate_backend` every 15 ms while four tasks decide: every
    /// unit either returns (and is in the ledger), or fails with an error naming the lost
    /// connection and saying whether it was rolled back (not in the ledger) or may be recorded.
    /// No call hangs (each has the store's deadline), and the store goes on by itself.
    @Test(.timeLimit(.minutes(3)))
    func aConnectionKilledMidRunIsAClearErrorAndLosesNoEntry() async throws {
        try await PostgresTestServer.withDatabase { url in
            var options = PostgresLedgerStore.Options()
            options.reconnects = 0
            options.timeout = .seconds(5)
            let store = try await PostgresLedgerStore(url: url, options: options)
            let recorder = DecisionRecorder(engine: try PostgresFixtures.engine(PostgresFixtures.bundle(cap: 1_000)), store: store)
            let database = try #require(URLComponents(string: url)?.path.dropFirst())
            // Another connection terminates every backend of the test database but its own, again and again.
            let killer = Task {
                try await PostgresTestServer.admin(url) { connection, logger in
                    var killed = 0
                    while !Task.isCancelled {
                        let rows = try await connection.query("""
                            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                            WHERE datname = \(String(database)) AND pid <> pg_backend_pid()
                            """, logger: logger)
                        killed += try await rows.decode(Int.self).reduce(0, +)
                        try? await Task.sleep(for: .milliseconds(15))
                    }
                    return killed
                }
            }
            struct Outcome: Sendable { var recorded: [String] = []; var rolledBack: [String] = []; var unknown: [String] = []; var other: [String] = [] }
            let outcome = await withTaskGroup(of: Outcome.self) { group in
                for task in 0 ..< 4 {
                    group.addTask {
                        var outcome = Outcome()
                        for i in stride(from: task, to: 600, by: 4) {
                            let request = PostgresFixtures.request(user: "u1", id: "k\(i)", at: PostgresFixtures.monday + i)
                            do {
                                let result = try await recorder.decide(request, idempotencyKey: "r\(i)")
                                outcome.recorded += result.recorded.map(\.key)
                            } catch let error as StoreError where Self.names(error, location: store.location, "nothing was recorded") {
                                outcome.rolledBack.append("ping:k\(i)")
                            } catch let error as StoreError where Self.names(error, location: store.location, "may or may not be recorded") {
                                outcome.unknown.append("ping:k\(i)")
                            } catch {
                                outcome.other.append("\(error)")
                            }
                        }
                        return outcome
                    }
                }
                return await group.reduce(into: Outcome()) {
                    $0.recorded += $1.recorded; $0.rolledBack += $1.rolledBack; $0.unknown += $1.unknown; $0.other += $1.other
                }
            }
            killer.cancel()
            let killed = try await killer.value
            #expect(killed > 0)
            #expect(outcome.other.isEmpty, "errors that do not name the lost connection: \(outcome.other.prefix(3))")
            #expect(outcome.rolledBack.count + outcome.unknown.count > 0, "no unit of work met a killed connection")
            let ledger = Set(try await store.entries(user: "u1").map(\.entry.key))
            // Every decision returned is in the ledger; none rolled back is; the unknown ones may be.
            #expect(Set(outcome.recorded).isSubset(of: ledger))
            #expect(Set(outcome.rolledBack).isDisjoint(with: ledger))
            #expect(ledger.isSubset(of: Set(outcome.recorded + outcome.unknown)))
            // The store recovers: the next unit connects anew.
            let after = try await recorder.decide(PostgresFixtures.request(user: "u1", id: "after", at: PostgresFixtures.monday + 10_000))
            #expect(after.recorded.map(\.key) == ["ping:after"])
            await store.close()
        }
    }

    /// A lost connection is H0702, a unit past its deadline (a statement sent as the server
    /// dropped the connection is never answered) H0706; both name the server and the outcome.
    /// A connect that failed (the new backend was killed too) sent nothing: rolled back.
    static func names(_ error: StoreError, location: String, _ outcome: String) -> Bool {
        guard [.unreachable, .databaseFailed].contains(error.code), error.message.contains("`\(location)`") else { return false }
        return error.message.contains(outcome)
            || (outcome == "nothing was recorded" && error.message.hasPrefix("cannot connect to PostgreSQL at"))
    }
}
#endif
