import Foundation
import HeraldContract
import HeraldEngine
import HeraldTestSupport
import Testing

/// `herald decide --store`, `herald event`, `herald ledger show|forget|prune`.
@Suite struct StoreCommandTests {
    typealias Run = ChildProcess.Result

    func herald(_ arguments: [String]) throws -> Run {
        let binary = try #require(StoreFixtures.builtBinary("herald"))
        return try ChildProcess.run(binary, arguments)
    }

    /// A policy directory, a request file for `id` and the store URL, in a fresh directory.
    func setUp() throws -> (policy: String, request: (String) throws -> String, store: String, directory: URL) {
        let directory = StoreFixtures.temporaryDirectory()
        let policy = directory.appendingPathComponent("policy")
        try FileManager.default.createDirectory(at: policy, withIntermediateDirectories: true)
        try StoreFixtures.bundle(cap: 1).write(to: policy.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let request = { (id: String) throws -> String in
            let file = directory.appendingPathComponent("\(id).json")
            try """
                {"type": "ping", "at": "2026-03-09T10:00:00Z", "now": "2026-03-09T10:00:00Z", "user": {"id": "u1"},
                 "permission": "granted", "params": {"id": "\(id)"}}
                """.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        return (policy.path, request, "sqlite:" + directory.appendingPathComponent("herald.db").path, directory)
    }

    @Test func decideRecordsAndARetryPrintsTheSameBytes() throws {
        let (policy, request, store, directory) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try herald(["decide", policy, "--request", request("a"), "--store", store, "--idempotency-key", "r1", "--compact"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try JSON.parse(first.stdout.trimmingCharacters(in: .newlines))["action"]?.stringValue == "schedule")
        let retry = try herald(["decide", policy, "--request", request("b"), "--store", store, "--idempotency-key", "r1", "--compact"])
        #expect(retry.stdout == first.stdout)
        // The cap (1 a day) now counts the recorded entry.
        let second = try herald(["decide", policy, "--request", request("c"), "--store", store, "--compact"])
        #expect(try JSON.parse(second.stdout.trimmingCharacters(in: .newlines))["reason"]?.stringValue == "rate_limited")
        // Without --store the decision stays pure: nothing counts.
        let pure = try herald(["decide", policy, "--request", request("c"), "--compact"])
        #expect(try JSON.parse(pure.stdout.trimmingCharacters(in: .newlines))["action"]?.stringValue == "schedule")
        let shown = try herald(["ledger", "show", "--store", store, "--user", "u1", "--compact"])
        #expect(shown.status == 0)
        let entries = try JSON.parse(shown.stdout.trimmingCharacters(in: .newlines)).elements ?? []
        #expect(entries.map { $0["key"]?.stringValue } == ["ping:a"])
    }

    @Test func eventsUpdateAndAnUnknownKeyFailsWithItsCode() throws {
        let (policy, request, store, directory) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try herald(["decide", policy, "--request", request("a"), "--store", store])
        let event = try herald(["event", "--store", store, "--user", "u1", "--key", "ping:a", "--status", "dismissed",
                                "--at", "2026-03-09T11:00:00Z"])
        #expect(event.status == 0, "\(event.stderr)")
        #expect(try JSON.parse(event.stdout.trimmingCharacters(in: .newlines))["status"]?.stringValue == "dismissed")
        let unknown = try herald(["event", "--store", store, "--user", "u1", "--key", "ping:nope", "--status", "opened"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "error[H0704]: no live entry of user `u1` has key `ping:nope`\n")
        let badStatus = try herald(["event", "--store", store, "--user", "u1", "--key", "ping:a", "--status", "read"])
        #expect(badStatus.status == 64)
    }

    @Test func forgetAndPrune() throws {
        let (policy, request, store, directory) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try herald(["decide", policy, "--request", request("a"), "--store", store])
        let kept = try herald(["ledger", "prune", policy, "--store", store, "--now", "2026-03-10T10:00:00Z"])
        #expect(kept.stdout == "{\"deleted\":0}\n", "\(kept.stderr)")
        let pruned = try herald(["ledger", "prune", policy, "--store", store, "--now", "2026-03-20T10:00:00Z"])
        #expect(pruned.stdout == "{\"deleted\":1}\n")
        _ = try herald(["decide", policy, "--request", request("b"), "--store", store])
        let forgot = try herald(["ledger", "forget", "--store", store, "--user", "u1"])
        #expect(forgot.stdout == "{\"deleted\":1,\"user\":\"u1\"}\n")
        #expect(try herald(["ledger", "show", "--store", store, "--user", "u1", "--compact"]).stdout == "[]\n")
    }

    @Test func badStoresAreClearErrors() throws {
        let (policy, request, _, directory) = try setUp()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.db")
        try Data(repeating: 7, count: 4096).write(to: garbage)
        let corrupt = try herald(["decide", policy, "--request", request("a"), "--store", "sqlite:" + garbage.path])
        #expect(corrupt.status == 1)
        #expect(corrupt.stderr.hasPrefix("error[H0701]: `\(garbage.path)` is not a Herald SQLite database or is damaged"))
        // Nothing listens on port 1: a clear error naming the server, not a hang or a crash.
        let postgres = try herald(["ledger", "show", "--store", "postgres://herald@127.0.0.1:1/herald", "--user", "u1"])
        #if Server
        #expect(postgres.status == 1 && postgres.stderr.hasPrefix("error[H0702]: cannot connect to PostgreSQL at `postgres://herald@127.0.0.1:1/herald`"))
        #else
        #expect(postgres.status == 64 && postgres.stderr.contains("H0705") && postgres.stderr.contains("without PostgreSQL"))
        #endif
        let unknown = try herald(["ledger", "show", "--store", "mysql://x", "--user", "u1"])
        #expect(unknown.status == 64 && unknown.stderr.contains("is not a store URL"))
    }
}
