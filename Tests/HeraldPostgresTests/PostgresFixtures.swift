#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldStore
import HeraldTestSupport

/// Policies and requests of the PostgreSQL tests: the same `ping` bundle as HeraldStoreTests'
/// `StoreFixtures` (test targets cannot share files), so both stores are held to one behaviour.
enum PostgresFixtures {
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-pg-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `yaml` as a bundle directory; the caller removes it.
    static func bundleDirectory(_ yaml: String) throws -> URL {
        let root = temporaryDirectory()
        try yaml.write(to: root.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    static func engine(_ yaml: String) throws -> Engine {
        let root = try bundleDirectory(yaml)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = Validator.validate(root.path, lints: false)
        guard let bundle = result.bundle else {
            throw FixtureError(message: result.diagnostics.map { "\($0)" }.joined(separator: "\n"))
        }
        return Engine(bundle: bundle)
    }

    struct FixtureError: Error { var message: String }

    /// One type `ping` (immediate, keyed by its `id` param) under a hard global cap of `cap` a day.
    static func bundle(cap: Int, extra: String = "") -> String {
        """
        app: { name: Store, scheme: store }
        channels:
          push: { kind: push }
        categories:
          news: { title: News }
        routes:
          home: { url: "store://home" }
        types:
          ping:
            category: news
            channels: [push]
            params: { id: string }
            idempotencyKey: "ping:{id}"
            copy: { body: "Ping {id}." }
        defaults: { timezone: UTC }
        caps:
          - { id: daily, scope: global, max: \(cap), per: day }
        \(extra)
        """
    }

    static func request(user: String, id: String, at: Int) -> DecisionRequest {
        DecisionRequest(type: "ping", at: at, now: at, user: ["id": .string(user)], permission: .granted,
                        params: ["id": .string(id)])
    }

    /// 2026-03-09T10:00:00Z.
    static let monday = 1_773_050_400

    /// The built `herald-ledger-load` (BuiltProducts.executable).
    static var loadBinary: String? { BuiltProducts.executable("herald-ledger-load") }
}
#endif
