#if Server
import Foundation
import HeraldContract
import HeraldEngine
@testable import HeraldServe
import HeraldStore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `herald serve` against an attacker and faults (docs/serve.md § Safe defaults): ids in paths, one id
/// limit, browsers on loopback, amplified errors, a store that cannot write, a late unit, half
/// a policy file, HEAD.
@Suite struct ServeSecurityTests {
    static let post: HTTPFields = ServeFixtures.jsonBody

    /// The ids every client writes percent-encoded in a path.
    static let ids = ["a/b", "ana@example.com", "50%", "with space", "ünïcödé", "a%2Fb", "?#&="]

    static func encoded(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test func pathIdsArePercentDecodedOnce() async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            for id in Self.ids {
                try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: Self.post,
                                         body: ServeFixtures.body(try ServeFixtures.dueToday(user: id))) { (response) throws in
                    #expect(response.status == .ok, "\(id)")
                }
            }
            for id in Self.ids {
                try await client.execute(uri: "/v1/users/\(Self.encoded(id))/ledger", method: .get) { (response) throws in
                    let json = try ServeFixtures.json(response)
                    #expect(json["user"]?.stringValue == id)
                    #expect(json["entries"]?.elements?.count == 1, "\(id)")
                }
            }
            // Deleting `a/b` deletes its rows only; the user named `a%2Fb` keeps its own.
            try await client.execute(uri: "/v1/users/a%2Fb", method: .delete) { (response) throws in
                #expect(try ServeFixtures.json(response)["deleted"]?.intValue == 1)
            }
            try await client.execute(uri: "/v1/users/a%252Fb/ledger", method: .get) { (response) throws in
                #expect(try ServeFixtures.json(response)["entries"]?.elements?.count == 1)
            }
            try await client.execute(uri: "/v1/users/a%2Fb/ledger", method: .get) { (response) throws in
                #expect(try ServeFixtures.json(response)["entries"]?.elements?.count == 0)
            }
            try await client.execute(uri: "/v1/users/%zz/ledger", method: .get) { (response) throws in
                #expect(response.status == .badRequest)
                #expect(try ServeFixtures.errorCode(response) == "invalid_request")
            }
        }
    }

    @Test func oneIdLimitOnEveryRoute() async throws {
        let server = try ServeFixtures.server()
        let longest = String(repeating: "é", count: UserContext.maxIDBytes / 2)
        let tooLong = longest + "x"
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: Self.post,
                                     body: ServeFixtures.body(try ServeFixtures.dueToday(user: tooLong))) { (response) throws in
                #expect(response.status == .unprocessableContent)
                #expect(try ServeFixtures.json(response)["error"]?["field"]?.stringValue == "user.id")
            }
            try await client.execute(uri: "/v1/events", method: .post, headers: Self.post,
                                     body: ServeFixtures.body(#"{"user":"\#(tooLong)","key":"k","status":"opened"}"#)) { (response) throws in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/v1/users/\(Self.encoded(tooLong))/ledger", method: .get) { (response) throws in
                #expect(response.status == .badRequest)
            }
            // What can be written can be read and deleted.
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: Self.post,
                                     body: ServeFixtures.body(try ServeFixtures.dueToday(user: longest))) { (response) throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/users/\(Self.encoded(longest))/ledger", method: .get) { (response) throws in
                #expect(try ServeFixtures.json(response)["entries"]?.elements?.count == 1)
            }
            try await client.execute(uri: "/v1/users/\(Self.encoded(longest))", method: .delete) { (response) throws in
                #expect(try ServeFixtures.json(response)["deleted"]?.intValue == 1)
            }
        }
        #expect(throws: RequestErrors.self) {
            _ = try server.registry.policy("handz")!.engine!.userContext(id: tooLong)
        }
    }

    @Test(arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"])
    func bodiesNotDeclaredJSONAre415(_ contentType: String?) async throws {
        let store = InMemoryLedgerStore()
        let server = try ServeFixtures.server(store: store)
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        let headers = fields
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: headers,
                                     body: ServeFixtures.body(try ServeFixtures.dueToday())) { (response) throws in
                #expect(response.status == .unsupportedMediaType)
                #expect(try ServeFixtures.errorCode(response) == "unsupported_media_type")
            }
        }
        #expect(try await store.entries(user: "u-1842").isEmpty)
    }

    @Test(arguments: ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"])
    func jsonContentTypesAreRead(_ contentType: String) async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: [.contentType: contentType],
                                     body: ServeFixtures.body(try ServeFixtures.dueToday())) { (response) throws in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func loopbackHostNames() {
        for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "[::2]:80", "localhost:99999", "10.0.0.1", "[::1", "127.0.0.256"] {
            #expect(!LoopbackHostMiddleware<ServeRequestContext>.isLoopback(authority: host), "\(host)")
        }
        for host in ["localhost", "LOCALHOST:8080", "127.0.0.1:8080", "127.1.2.3", "[::1]:8080", "[::1]", "app.localhost", "localhost."] {
            #expect(LoopbackHostMiddleware<ServeRequestContext>.isLoopback(authority: host), "\(host)")
        }
    }

    @Test func errorsAreCappedAndCounted() async throws {
        let server = try ServeFixtures.server()
        var json = try JSON.parse(try ServeFixtures.dueToday())
        guard case .object(var members) = json else { return }
        members.removeAll { $0.key == "params" }
        members.append(JSON.Member("params", .object((0..<100_000).map { JSON.Member(String($0, radix: 16), .int(0)) })))
        json = .object(members)
        let body = json.serialized()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: Self.post, body: ServeFixtures.body(body)) { (response) throws in
                #expect(response.status == .unprocessableContent)
                #expect(response.body.readableBytes < 4_096)
                let message = try ServeFixtures.json(response)["error"]?["message"]?.stringValue ?? ""
                #expect(message.hasSuffix("… and 99980 more"), "\(message.suffix(80))")
            }
        }
        var errors = RequestErrors()
        for index in 0..<1_000 { errors.append(RequestError(path: "p\(index)", message: "m")) }
        #expect(errors.errors.count == RequestErrors.listLimit)
        #expect(errors.omitted == 1_000 - RequestErrors.listLimit)
    }

    @Test func headOnGetRoutes() async throws {
        let server = try ServeFixtures.server()
        try await ServeFixtures.test(server) { client in
            for uri in ["/healthz", "/readyz", "/metrics", "/v1/policies", "/v1/users/u-1/ledger"] {
                let length = try await client.execute(uri: uri, method: .get) { $0.body.readableBytes }
                try await client.execute(uri: uri, method: .head) { (response) throws in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.body.readableBytes == 0)
                    if uri != "/metrics" { #expect(response.headers[.contentLength] == String(length), "\(uri)") }
                }
            }
            try await client.execute(uri: "/v1/users/u-1", method: .get) { (response) throws in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "DELETE")
            }
        }
    }

    @Test func readinessChecksThatTheStoreCanRecord() async throws {
        let store = FlakyStore()
        store.down.withLock { $0 = false }
        store.writesDown.withLock { $0 = true }
        let server = try ServeFixtures.server(store: store)
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/readyz", method: .get) { (response) throws in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("cannot record"))
            }
            store.writesDown.withLock { $0 = false }
            try await client.execute(uri: "/readyz", method: .get) { (response) throws in
                #expect(response.status == .ok)
            }
        }
    }

    /// A unit that gets the ledger after the request's limit (another process held SQLite's
    /// write lock) records nothing: the caller heard 503 `timeout`, and a retry is decided anew.
    @Test func aTimedOutUnitRecordsNothing() async throws {
        let store = FlakyStore()
        store.down.withLock { $0 = false }
        store.lockWait.withLock { $0 = .milliseconds(800) }
        let server = try ServeFixtures.server(store: store) { $0.requestTimeout = .milliseconds(200) }
        let request = try ServeFixtures.dueToday()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: Self.post,
                                     body: ServeFixtures.body(request)) { (response) throws in
                #expect(response.status == .serviceUnavailable)
                #expect(try ServeFixtures.errorCode(response) == "timeout")
            }
        }
        try await Task.sleep(for: .seconds(1.5))
        #expect(try await store.inner.entries(user: "u-1842").isEmpty)
    }

    /// A bundle whose files changed within the quiet period is not read yet (a file cut
    /// mid-write can be a valid, shorter policy), also on SIGHUP; it is once they are quiet.
    @Test func reloadWaitsForQuietFiles() throws {
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeFixtures.server(policies: directory + "/policies") { $0.reloadQuietPeriod = .seconds(60) }
        let registry = server.registry
        let digest = registry.policy("handz")?.digest
        let policy = directory + "/policies/handz/policy.yaml"
        let text = try String(contentsOfFile: policy, encoding: .utf8)
        // Half the file, cut inside a comment: still a policy, without the sections after it.
        try (text.prefix(text.count / 2) + "\n# cut").write(toFile: policy, atomically: false, encoding: .utf8)
        #expect(registry.reload(force: false, trigger: "test").isEmpty)
        #expect(registry.reload(force: true, trigger: "SIGHUP").isEmpty)
        #expect(registry.policy("handz")?.digest == digest)
        try text.write(toFile: policy, atomically: false, encoding: .utf8)
        // A minute later the file is quiet; the reload owed to SIGHUP runs without a change.
        #expect(registry.reload(force: false, trigger: "test", now: Date().addingTimeInterval(61)) == ["handz"])
        #expect(registry.policy("handz")?.digest == digest)
    }

    /// A policies directory that cannot be listed (out of descriptors) keeps what is loaded.
    @Test func anUnlistableDirectoryKeepsThePolicies() throws {
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeFixtures.server(policies: directory + "/policies")
        try FileManager.default.moveItem(atPath: directory + "/policies", toPath: directory + "/moved")
        #expect(server.registry.reload(force: true, trigger: "test").isEmpty)
        #expect(server.registry.policy("handz")?.engine != nil)
    }
}
#endif
