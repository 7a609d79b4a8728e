import Foundation
import HeraldSyntax
@testable import HeraldPolicy

/// Helpers for the compiler, bundle and model tests: the repo root, temporary bundles, and a
/// one-line rendering of diagnostics to assert on.
enum CompilerTestSupport {
    /// The repository root, found from this file's path.
    static let repoRoot: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.dropLast(3).joined(separator: "/")
    }()

    static let fixtures = repoRoot + "/Tests/Fixtures/diagnostics"

    static let minimalBundle = """
    app: { name: Demo, scheme: demo }
    channels:
      push: { kind: push }
    categories:
      reminders: { title: Reminders }
    state:
      streak: int
      lastOpenedAt: instant?
    routes:
      home: { url: "demo://home" }
    types:
      daily-reminder:
        category: reminders
        channels: [push]
        copy: { body: "Time to practice." }
        link: { route: home }

    """

    /// Writes `files` into a fresh temporary directory and returns its path.
    static func makeBundle(_ files: [String: String]) -> String {
        let dir = NSTemporaryDirectory() + "herald-compiler-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let path = dir + "/" + name
            try! FileManager.default.createDirectory(atPath: BundleLoader.parent(of: path), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        }
        return dir
    }

    /// Validates a one-file bundle.
    static func validate(_ text: String, lints: Bool = false) -> ValidationResult {
        Validator.validate(makeBundle(["bundle.yaml": text]), lints: lints)
    }

    /// Validates the minimal bundle with `extra` appended (top-level YAML).
    static func validateMinimal(plus extra: String = "") -> ValidationResult {
        validate(minimalBundle + extra)
    }

    /// The codes of the diagnostics, in order.
    static func codes(_ result: ValidationResult) -> [String] {
        result.diagnostics.sorted.map(\.code.id)
    }

    /// `H0201 3:5` lines.
    static func places(_ result: ValidationResult) -> [String] {
        result.diagnostics.sorted.map { d in
            d.span.map { "\(d.code.id) \($0.start.line):\($0.start.column)" } ?? d.code.id
        }
    }
}
