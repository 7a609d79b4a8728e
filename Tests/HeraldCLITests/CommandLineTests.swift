import Foundation
import HeraldSyntax
import Testing

/// Runs the built `herald` binary and checks its exit codes: 0 ok, 1 invalid, 64 bad usage.
@Suite struct CommandLineTests {
    static let validBundle = """
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

    static func run(_ arguments: [String], in directory: String? = nil) throws -> TestSupport.RunResult {
        guard TestSupport.heraldBinary != nil else {
            Issue.record("the `herald` binary was not found next to the tests or in .build/debug; run `swift build` first")
            throw CocoaError(.fileNoSuchFile)
        }
        return try TestSupport.runHerald(arguments, in: directory)
    }

    @Test(arguments: [
        ["validate"],                                  // no directory
        ["validate", "/nonexistent/herald/bundle"],    // a path that does not exist
        ["validate", "--bogus", "."],                  // an unknown flag
        ["validate", "--format", "xml", "."],          // an unknown format
        ["frobnicate"],                                // an unknown subcommand
    ])
    func badUsageExits64(_ arguments: [String]) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 64, "`herald \(arguments.joined(separator: " "))` exited \(result.status)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func aFileThatIsNotYAMLIsBadUsage() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bundle.txt")
        try Self.validBundle.write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.run(["validate", file.path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is neither a directory nor a `.yaml` file"))
    }

    /// docs/language.md: "a single `.yaml` file may be validated on its own".
    @Test func aSingleYAMLFileValidates() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.validBundle.write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let result = try Self.run(["validate", "--no-color", "bundle.yaml"], in: directory.path)
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("ok: bundle.yaml (1 file, 0 warnings)"))
    }

    @Test func missingPathMessageNamesThePath() throws {
        let result = try Self.run(["validate", "no/such/dir"])
        #expect(result.stderr.contains("`no/such/dir` does not exist"))
    }

    /// Needs the real Validator (merged from the compiler work); the skeleton reports nothing.
    @Test func validBundleExits0() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.validBundle.write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let result = try Self.run(["validate", "--no-color", "."], in: directory.path)
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("ok: . ("))
        #expect(!result.stdout.contains("\u{1B}["))
    }

    /// Needs the real Validator (merged from the compiler work); the skeleton reports nothing.
    @Test func invalidBundleExits1() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = Self.validBundle.replacingOccurrences(of: "category: reminders", with: "categroy: reminders")
        try broken.write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let text = try Self.run(["validate", "--no-color", "."], in: directory.path)
        #expect(text.status == 1, "stdout: \(text.stdout)")
        #expect(text.stdout.contains("bundle.yaml:13:5: error["))
        #expect(text.stdout.contains("error: "))
        for format in ["json", "github", "sarif"] {
            let result = try Self.run(["validate", "--format", format, "."], in: directory.path)
            #expect(result.status == 1, "--format \(format) exited \(result.status)")
        }
    }

    /// Issue 15, item 2: a 50 MB file (sparse, so quick to make) is answered with H0110 and a
    /// few lines, not echoed: nothing in the output is longer than a snippet's window.
    @Test func oversizedFileIsRejectedInAFewLines() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("policy.yaml").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("a: ".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 50_000_000)
        try handle.close()
        for format in ["text", "json", "github", "sarif"] {
            let result = try Self.run(["validate", "--no-color", "--format", format, "."], in: directory.path)
            #expect(result.status == 1)
            #expect(result.stdout.contains("H0110"), "--format \(format)")
            #expect(result.stdout.contains("50000000 bytes"), "--format \(format)")
            // SARIF always carries the table of every rule; only what is said about the file counts.
            let overhead = format == "sarif" ? DiagnosticRenderer(format: .sarif).render([]).utf8.count : 0
            #expect(result.stdout.utf8.count + result.stderr.utf8.count - overhead < 2_048, "--format \(format)")
            #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 200 }, "--format \(format)")
        }
    }

    @Test func schemaPrintsAndWrites() throws {
        let printed = try Self.run(["schema"])
        #expect(printed.status == 0)
        #expect(printed.stdout.contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("herald.schema.json")
        let written = try Self.run(["schema", "--output", file.path])
        #expect(written.status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == printed.stdout)
    }
}
