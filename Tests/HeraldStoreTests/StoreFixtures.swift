import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldStore
import HeraldSyntax
import HeraldTestSupport

/// Policies and requests the store tests share.
enum StoreFixtures {
    /// A temporary directory removed by the caller.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-store-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Compiles a bundle written as one `bundle.yaml` in a temporary directory.
    static func engine(_ yaml: String) throws -> Engine {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try yaml.write(to: root.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let result = Validator.validate(root.path, lints: false)
        guard let bundle = result.bundle else {
            throw FixtureError(message: result.diagnostics.map { "\($0)" }.joined(separator: "\n"))
        }
        return Engine(bundle: bundle)
    }

    struct FixtureError: Error { var message: String }

    /// One type `ping` (immediate, keyed by its `id` param) under a hard global cap of `cap` a day.
    /// `types` is more type entries, indented two spaces (they join `types:`).
    static func bundle(cap: Int, types: String = "") -> String {
        let head = """
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

        """
        return head + types + """
        defaults: { timezone: UTC }
        caps:
          - { id: daily, scope: global, max: \(cap), per: day }

        """
    }

    /// A `ping` request for `user` at `at`.
    static func request(user: String, id: String, at: Int) -> DecisionRequest {
        DecisionRequest(type: "ping", at: at, now: at, user: ["id": .string(user)], permission: .granted,
                        params: ["id": .string(id)])
    }

    /// 2026-03-09T10:00:00Z.
    static let monday = 1_773_050_400
}

extension StoreFixtures {
    /// A product of this package's build (BuiltProducts.executable).
    static func builtBinary(_ name: String) -> String? {
        BuiltProducts.executable(name)
    }

    /// The repository root.
    static var repositoryRoot: URL { BuiltProducts.repositoryRoot }
}
