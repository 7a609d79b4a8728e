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

/// Every bad request is a 4xx with `{"error": {"code", "message", "field"}}`, never a 500 or a
/// closed connection.
@Suite struct ServeBadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var uri: String
        var body: String
        var status: Int
        var code: String
        var field: String?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "malformed JSON", uri: "/v1/policies/handz/decide", body: #"{"type": "N-MAINT-DUE-TODAY", "#, status: 400, code: "malformed_json", field: "request"),
        Case(name: "empty body", uri: "/v1/policies/handz/decide", body: "", status: 400, code: "malformed_json", field: "request"),
        Case(name: "not an object", uri: "/v1/policies/handz/decide", body: "[1, 2]", status: 422, code: "invalid_request", field: "request"),
        Case(name: "deep nesting", uri: "/v1/policies/handz/decide", body: String(repeating: "[", count: 40) + String(repeating: "]", count: 40), status: 400, code: "too_deep", field: "request"),
        Case(name: "wrong type of at", uri: "/v1/policies/handz/decide",
             body: #"{"type": "N-MAINT-DUE-TODAY", "at": 42, "now": "2026-03-08T17:45:02Z", "user": {"id": "u1"}}"#, status: 422, code: "invalid_request", field: "at"),
        Case(name: "unknown type", uri: "/v1/policies/handz/decide",
             body: #"{"type": "N-NOPE", "at": "2026-03-08T17:45:00Z", "now": "2026-03-08T17:45:02Z", "user": {"id": "u1", "account": true, "tier": "pro", "credits": 0}}"#,
             status: 422, code: "unknown_type", field: "type"),
        Case(name: "history sent to decide", uri: "/v1/policies/handz/decide",
             body: #"{"type": "N-MAINT-DUE-TODAY", "at": "2026-03-08T17:45:00Z", "now": "2026-03-08T17:45:02Z", "user": {"id": "u1"}, "history": []}"#,
             status: 422, code: "history_not_accepted", field: "history"),
        Case(name: "unknown policy", uri: "/v1/policies/nope/decide", body: "{}", status: 404, code: "unknown_policy", field: "name"),
        Case(name: "unknown route", uri: "/v1/nothing", body: "{}", status: 404, code: "not_found", field: nil),
        Case(name: "event with a bad status", uri: "/v1/events", body: #"{"user": "u1", "key": "k", "status": "read"}"#, status: 422, code: "invalid_request", field: "status"),
        Case(name: "event with a number for user", uri: "/v1/events", body: #"{"user": 7, "key": "k", "status": "opened"}"#, status: 422, code: "invalid_request", field: "user"),
        Case(name: "plan without candidates", uri: "/v1/policies/handz/plan", body: #"{"now": "2026-03-08T17:45:02Z", "user": {"id": "u1"}, "candidates": []}"#, status: 422, code: "invalid_request", field: "candidates"),
    ]

    @Test(arguments: cases)
    func badRequest(_ item: Case) async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: item.uri, method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(item.body)) { (response) throws in
                #expect(response.status.code == item.status)
                #expect(response.headers[.contentType] == "application/json")
                let error = try ServeFixtures.json(response)["error"]
                #expect(error?["code"]?.stringValue == item.code)
                #expect(error?["message"]?.stringValue?.isEmpty == false)
                #expect(error?["field"]?.stringValue == item.field)
            }
        }
    }

    @Test func hugeBodyIs413() async throws {
        let server = try ServeFixtures.server { $0.maxBodyBytes = 4096 }
        let huge = #"{"type": ""# + String(repeating: "x", count: 10_000) + #""}"#
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(huge)) { (response) throws in
                #expect(response.status == .contentTooLarge)
                #expect(try ServeFixtures.errorCode(response) == "body_too_large")
            }
            // The connection still answers after it.
            try await client.execute(uri: "/healthz", method: .get) { (response) throws in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func tokens() async throws {
        let token = "s3cret-token-0123456789"
        let server = try ServeFixtures.server { $0.tokens = BearerTokens([token]) }
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies", method: .get) { (response) throws in
                #expect(response.status == .unauthorized)
                #expect(try ServeFixtures.errorCode(response) == "missing_token")
            }
            try await client.execute(uri: "/v1/policies", method: .get, headers: [.authorization: "Bearer s3cret-token-0123456780"]) { (response) throws in
                #expect(response.status == .unauthorized)
                #expect(try ServeFixtures.errorCode(response) == "invalid_token")
            }
            try await client.execute(uri: "/v1/policies", method: .get, headers: [.authorization: "Basic \(token)"]) { (response) throws in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/policies", method: .get, headers: [.authorization: "Bearer \(token)"]) { (response) throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/healthz", method: .get) { (response) throws in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func tokenComparison() {
        let tokens = BearerTokens(["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbb"])
        #expect(tokens.accepts("aaaaaaaaaaaaaaaa"))
        #expect(tokens.accepts("bbbbbbbbbbbbbbbbbbbb"))
        #expect(!tokens.accepts("aaaaaaaaaaaaaaa"))
        #expect(!tokens.accepts("aaaaaaaaaaaaaaaaa"))
        #expect(!tokens.accepts(""))
        #expect(!tokens.accepts("bbbbbbbbbbbbbbbbbbbc"))
    }

    @Test func listenAddresses() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080").isLoopback)
        #expect(try ListenAddress(parsing: "[::1]:9000") == ListenAddress(host: "::1", port: 9000))
        #expect(try ListenAddress(parsing: "localhost:1").isLoopback)
        #expect(try !ListenAddress(parsing: "0.0.0.0:8080").isLoopback)
        #expect(try !ListenAddress(parsing: "10.0.0.7:8080").isLoopback)
        #expect(throws: ServeSetupError.self) { try ListenAddress(parsing: "127.0.0.1") }
        #expect(throws: ServeSetupError.self) { try ListenAddress(parsing: "127.0.0.1:99999") }
    }

    @Test func nonLoopbackNeedsTokens() throws {
        #expect(throws: ServeSetupError.publicWithoutTokens("0.0.0.0:8080")) {
            try ServeFixtures.server { $0.listen = ListenAddress(host: "0.0.0.0", port: 8080) }
        }
        _ = try ServeFixtures.server {
            $0.listen = ListenAddress(host: "0.0.0.0", port: 8080)
            $0.tokens = BearerTokens(["0123456789abcdef"])
        }
    }

    @Test func tokensFileRules() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "# comment\n\nshort\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ServeSetupError.self) { try BearerTokens.load(path) }
        try "# comment\n0123456789abcdef\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try BearerTokens.load(path).accepts("0123456789abcdef"))
        #expect(throws: ServeSetupError.self) { try BearerTokens.load(path + ".missing") }
    }
}
#endif
