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

@Suite struct PolicyReloadTests {
    @Test func brokenPolicyKeepsTheLastGoodOne() async throws {
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeFixtures.server(policies: directory + "/policies")
        let good = try #require(server.registry.policy("handz")?.digest)
        let policyFile = directory + "/policies/handz/policy.yaml"
        let original = try String(contentsOfFile: policyFile, encoding: .utf8)

        // Nothing changed: nothing is recompiled.
        #expect(server.registry.reload(force: false, trigger: "test").isEmpty)

        try (original + "\ncaps: [oops\n").write(toFile: policyFile, atomically: true, encoding: .utf8)
        #expect(server.registry.reload(force: false, trigger: "test") == ["handz"])
        let broken = try #require(server.registry.policy("handz"))
        #expect(broken.digest == good)
        #expect(broken.engine != nil)
        #expect(!broken.lastLoad.ok)
        #expect(broken.lastLoad.errors.contains { $0.contains("error[") })

        let request = try ServeFixtures.dueToday()
        try await ServeFixtures.test(server) { client in
            try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: ServeFixtures.jsonBody, body: ServeFixtures.body(request)) { (response) throws in
                #expect(response.status == .ok)
                #expect(try ServeFixtures.json(response)["policy"]?["digest"]?.stringValue == good)
            }
            try await client.execute(uri: "/v1/policies", method: .get) { (response) throws in
                let policy = try ServeFixtures.json(response)["policies"]?.elements?.first
                #expect(policy?["lastLoad"]?["ok"] == .bool(false))
                #expect(policy?["digest"]?.stringValue == good)
                #expect(policy?["lastLoad"]?["errors"]?.elements?.isEmpty == false)
            }
            try await client.execute(uri: "/metrics", method: .get) { (response) throws in
                let text = String(buffer: response.body)
                #expect(text.contains(#"herald_policy_reload_failures_total{policy="handz"} 1"#))
                #expect(text.contains(#"herald_policy_last_load_ok{policy="handz"} 0"#))
            }
        }

        // A fixed file is picked up; a changed one gets a new digest.
        try (original + "\n# edited\n").write(toFile: policyFile, atomically: true, encoding: .utf8)
        #expect(server.registry.reload(force: false, trigger: "test") == ["handz"])
        let fixed = try #require(server.registry.policy("handz"))
        #expect(fixed.lastLoad.ok)
        #expect(fixed.digest != good)
    }

    @Test func catalogChangesAreNoticed() throws {
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeFixtures.server(policies: directory + "/policies")
        let catalog = directory + "/catalog/handz"
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: catalog).first { $0.hasSuffix(".yaml") })
        let text = try String(contentsOfFile: catalog + "/" + file, encoding: .utf8)
        try (text + "\n# touched\n").write(toFile: catalog + "/" + file, atomically: true, encoding: .utf8)
        #expect(server.registry.reload(force: false, trigger: "test") == ["handz"])
    }

    @Test func emptyDirectoryIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: ServeSetupError.self) { try ServeFixtures.server(policies: directory) }
        #expect(throws: ServeSetupError.self) { try ServeFixtures.server(policies: directory + "/missing") }
    }
}
#endif
