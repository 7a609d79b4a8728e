#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldServe
import HeraldStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct ServeRouteTests {
    @Test func healthAndPolicies() async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/healthz", method: .get) { (response) throws in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Request-Id")!] != nil)
            }
            try await client.execute(uri: "/readyz", method: .get) { (response) throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/policies", method: .get) { (response) throws in
                #expect(response.status == .ok)
                let policies = try ServeFixtures.json(response)["policies"]?.elements ?? []
                #expect(policies.compactMap { $0["name"]?.stringValue } == ["crescender", "handz", "kwilt", "rin", "urbannest"])
                #expect(policies.allSatisfy { $0["lastLoad"]?["ok"] == .bool(true) && $0["digest"]?.stringValue?.count == 16 })
            }
        }
    }

    @Test func decideRecordsAndReplays() async throws {
        let store = InMemoryLedgerStore()
        let server = try ServeFixtures.server(store: store)
        let request = try ServeFixtures.dueToday()
        try await ServeFixtures.test(server) { client in
            var first = ""
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: [HTTPField.Name("Idempotency-Key")!: "req-1", .contentType: "application/json"],
                                     body: ServeFixtures.body(request)) { (response) throws in
                #expect(response.status == .ok)
                first = String(buffer: response.body)
                let json = try ServeFixtures.json(response)
                #expect(json["action"]?.stringValue == "schedule")
                #expect(json["key"]?.stringValue == "N-MAINT-DUE-TODAY:u-1842:2026-03-08")
            }
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: [HTTPField.Name("Idempotency-Key")!: "req-1", .contentType: "application/json"],
                                     body: ServeFixtures.body(request)) { (response) throws in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == first)
                #expect(response.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            }
            // Without the key, the same trigger is a duplicate of the recorded one.
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(request)) { (response) throws in
                #expect(response.status == .ok)
                #expect(try ServeFixtures.json(response)["action"]?.stringValue == "suppress")
            }
            try await client.execute(uri: "/v1/users/u-1842/ledger", method: .get) { (response) throws in
                #expect(response.status == .ok)
                let entries = try ServeFixtures.json(response)["entries"]?.elements ?? []
                #expect(entries.count == 1)
                #expect(entries.first?["status"]?.stringValue == "scheduled")
            }
            try await client.execute(uri: "/v1/events", method: .post, headers: ServeFixtures.jsonBody,
                                     body: ServeFixtures.body(#"{"user":"u-1842","key":"N-MAINT-DUE-TODAY:u-1842:2026-03-08","status":"delivered","at":"2026-03-08T18:00:01Z"}"#)) { (response) throws in
                #expect(response.status == .ok)
                #expect(try ServeFixtures.json(response)["entry"]?["status"]?.stringValue == "delivered")
            }
            try await client.execute(uri: "/v1/events", method: .post, headers: ServeFixtures.jsonBody,
                                     body: ServeFixtures.body(#"{"user":"u-1842","key":"no-such-key","status":"opened"}"#)) { (response) throws in
                #expect(response.status == .notFound)
                #expect(try ServeFixtures.errorCode(response) == "unknown_key")
            }
            try await client.execute(uri: "/v1/users/u-1842", method: .delete) { (response) throws in
                #expect(response.status == .ok)
                #expect(try ServeFixtures.json(response)["deleted"] == .int(1))
            }
            try await client.execute(uri: "/v1/users/u-1842/ledger", method: .get) { (response) throws in
                #expect(try ServeFixtures.json(response)["entries"]?.elements?.isEmpty == true)
            }
        }
        #expect(try await store.entries(user: "u-1842").isEmpty)
    }

    @Test func pureRoutesAndPlan() async throws {
        let server = try ServeFixtures.server()
        let full = try String(contentsOfFile: ServeFixtures.root + "/docs/examples/due-today.json", encoding: .utf8)
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/explain", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(full)) { (response) throws in
                #expect(response.status == .ok)
                let json = try ServeFixtures.json(response)
                #expect(json["decision"]?["action"]?.stringValue == "schedule")
                #expect(json["explanation"]?.stringValue?.isEmpty == false)
            }
            let prompt = #"{"now":"2026-03-08T17:45:00Z","user":{"id":"u1","account":true,"tier":"pro","credits":0},"permission":"unknown"}"#
            try await client.execute(uri: "/v1/policies/handz/prompt", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(prompt)) { (response) throws in
                #expect(response.status == .ok)
                let action = try ServeFixtures.json(response)["prompt"]?.stringValue
                #expect(action == "ask" || action == "wait")
            }
            let plan = #"{"now":"2026-03-08T17:45:02Z","user":{"id":"u-9","account":true,"tier":"pro","credits":0},"permission":"granted","prefs":{"timezone":"Europe/Berlin"},"state":{"maintenance":{"dueToday":3,"overdue":0,"queueSize":4,"weeklyCapacity":10},"inbox":{"unread":3,"blockedSenders":[]},"billing":{"issue":false,"trialStatus":"none"},"account":{"emailVerified":true,"createdAt":"2025-11-02T10:00:00Z"}},"candidates":[{"type":"N-MAINT-DUE-TODAY","at":"2026-03-08T17:45:00Z","params":{"count":3},"subject":"u-9"}]}"#
            try await client.execute(uri: "/v1/policies/handz/plan", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(plan)) { (response) throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/policies/handz/reconcile", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(plan)) { (response) throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/users/u-9/ledger", method: .get) { (response) throws in
                #expect(try ServeFixtures.json(response)["entries"]?.elements?.count == 1)
            }
        }
    }

    @Test func metricsCountDecisions() async throws {
        let server = try ServeFixtures.server()
        let request = try ServeFixtures.dueToday()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(request)) { (response) throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/metrics", method: .get) { (response) throws in
                let text = String(buffer: response.body)
                #expect(text.contains(#"herald_decisions_total{policy="handz",action="schedule",reason="reminder_time"} 1"#))
                #expect(text.contains("herald_decide_duration_seconds_bucket"))
                #expect(text.contains("herald_store_duration_seconds_bucket"))
                #expect(text.contains(#"herald_policy_reloads_total{policy="handz",result="ok"} 1"#))
            }
        }
    }

    @Test func decisionLogHasOneLinePerDecision() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("decisions-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServeFixtures.server { $0.decisionLogPath = path }
        let request = try ServeFixtures.dueToday()
        try await ServeFixtures.test(server) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(request)) { _ in }
            }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSON.parse(String(lines[0]))
        #expect(first["policy"]?.stringValue == "handz")
        #expect(first["digest"]?.stringValue == server.registry.policy("handz")?.digest)
        #expect(first["decision"]?["action"]?.stringValue == "schedule")
        #expect(first["request_id"]?.stringValue?.isEmpty == false)
    }
}
#endif
