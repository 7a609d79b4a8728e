import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSimulate
import HeraldSyntax
import HeraldTesting
import Testing

/// The golden harness over `Tests/Fixtures/diagnostics/<CODE>-<slug>/`: each directory is a
/// small broken bundle with one realistic mistake, an `expect` file (`<CODE> <file>:<line>:<col>`
/// per line, paths relative to the directory) and `expected.txt`, the text rendering.
///
/// A directory holding `scenario.yaml` is a simulation scenario's fixture (H08xx): the scenario
/// is read against `policies/handz` instead of validating the directory as a bundle.
///
/// Regenerate the renderings with `HERALD_UPDATE_GOLDEN=1 swift test --filter DiagnosticFixtureTests`
/// and review the diff.
@Suite struct DiagnosticFixtureTests {
    static let fixturesRoot = TestSupport.path("Tests/Fixtures/diagnostics")

    /// Codes without a fixture directory, each with the reason.
    static let codesWithoutFixture: [String: String] = [
        // The reader's limits need multi-megabyte inputs; HeraldSyntaxTests builds them in memory.
        "H0110": "file larger than 4 MiB",
        "H0112": "more than 100,000 nodes",
        // A path that does not exist, or a file the process cannot read, cannot live in the
        // fixture tree; HeraldPolicyTests and the CLI tests (exit 64) cover them.
        "H0001": "the named path does not exist",
        "H0002": "a file that cannot be read (permissions)",
        // Policy test-file codes come from `herald test`, not `herald validate`: they are
        // checked on test files in Tests/HeraldTestingTests/PolicyTestTests.swift. Codes from
        // H0617 on also have a fixture directory with a `tests/` folder (read as `herald test` does).
        "H0601": "policy test file, checked by HeraldTestingTests",
        "H0602": "policy test file, checked by HeraldTestingTests",
        "H0603": "policy test file, checked by HeraldTestingTests",
        "H0605": "policy test file, checked by HeraldTestingTests",
        "H0606": "policy test file, checked by HeraldTestingTests",
        "H0607": "policy test file, checked by HeraldTestingTests and the `herald test` CLI tests",
        "H0608": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0609": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0610": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0611": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0612": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0613": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0614": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0615": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        "H0616": "policy test file, checked by HeraldTestingTests (StepKindTests)",
        // Request errors (`RequestError.code`), not bundle diagnostics.
        "H0256": "request error, checked by HeraldEngineTests (DeclaredPreferencesTests) and the bundle tests",
        "H0257": "request error, checked by HeraldEngineTests (DeclaredPreferencesTests) and the bundle tests",
    ]

    static let minimumFixtureCount = 40

    /// Fixture directory names (`H0102-duplicate-type`), sorted.
    static let fixtureNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixturesRoot)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return name.hasPrefix("H")
                && FileManager.default.fileExists(atPath: fixturesRoot + "/" + name, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }()

    struct Expectation: Hashable, CustomStringConvertible {
        var code: String
        var file: String
        var line: Int
        var column: Int
        var description: String { "\(code) \(file):\(line):\(column)" }
    }

    /// Parses `expect`: one `<CODE> <file>:<line>:<col>` per line; blank lines and `#` comments skipped.
    static func expectations(in directory: String) throws -> [Expectation] {
        let text = try String(contentsOfFile: directory + "/expect", encoding: .utf8)
        var result: [Expectation] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            let place = fields.count == 2 ? fields[1].split(separator: ":").map(String.init) : []
            guard place.count >= 3, let lineNumber = Int(place[place.count - 2]), let column = Int(place[place.count - 1]) else {
                Issue.record("\(directory)/expect: cannot read `\(line)`; write `<CODE> <file>:<line>:<col>`")
                continue
            }
            result.append(Expectation(code: fields[0], file: place.dropLast(2).joined(separator: ":"), line: lineNumber, column: column))
        }
        return result
    }

    @Test(arguments: fixtureNames)
    func fixture(_ name: String) throws {
        let directory = Self.fixturesRoot + "/" + name
        let (items, sources) = Self.diagnose(directory)
        let renderer = DiagnosticRenderer(format: .text, color: false, relativeTo: directory)
        let produced = items.map { diagnostic in
            (code: diagnostic.code.id, place: diagnostic.span.map { renderer.displayLocation($0.start) })
        }
        let producedList = produced.isEmpty
            ? "(nothing)"
            : produced.map { "\($0.code) \($0.place ?? "(no location)")" }.joined(separator: "\n")

        // 1. Every expected diagnostic is produced, at the expected span start.
        let expected = try Self.expectations(in: directory)
        #expect(!expected.isEmpty, "\(name)/expect lists no diagnostic")
        for expectation in expected {
            let found = produced.contains { $0.code == expectation.code && $0.place == "\(expectation.file):\(expectation.line):\(expectation.column)" }
            #expect(found, "\(name): expected \(expectation), produced:\n\(producedList)")
        }

        // 2. The code the directory is named after is produced.
        let code = String(name.prefix { $0 != "-" })
        #expect(produced.contains { $0.code == code }, "\(name): \(code) was not produced; produced:\n\(producedList)")

        // 3. The text rendering equals expected.txt.
        var rendering = renderer.render(items, sources: sources)
        if !rendering.isEmpty { rendering += "\n" }
        rendering += renderer.summary([.init(directory: ".", fileCount: sources.count, diagnostics: items)])
        let goldenPath = directory + "/expected.txt"
        if ProcessInfo.processInfo.environment["HERALD_UPDATE_GOLDEN"] == "1" {
            try rendering.write(toFile: goldenPath, atomically: true, encoding: .utf8)
            return
        }
        guard let golden = try? String(contentsOfFile: goldenPath, encoding: .utf8) else {
            Issue.record("\(name)/expected.txt is missing; create it with `HERALD_UPDATE_GOLDEN=1 swift test --filter DiagnosticFixtureTests` and review it")
            return
        }
        #expect(rendering == golden, "\(name): the rendering differs from expected.txt (HERALD_UPDATE_GOLDEN=1 regenerates it)")
    }

    /// The engine scenario fixtures are read against.
    static let handzEngine: Engine? = Validator.validate(TestSupport.path("policies/handz"), lints: false).bundle.map(Engine.init(bundle:))

    /// Validates a bundle fixture (with the test files of a `tests/` folder, read as `herald test`
    /// does, after the bundle's own diagnostics), or reads a scenario fixture against `policies/handz`.
    static func diagnose(_ directory: String) -> (items: [Diagnostic], sources: [String: SourceFile]) {
        let scenario = directory + "/scenario.yaml"
        guard FileManager.default.fileExists(atPath: scenario) else {
            let result = Validator.validate(directory)
            var items = result.diagnostics.items
            var sources = result.sources
            if FileManager.default.fileExists(atPath: directory + "/tests") {
                let suite = PolicyTestLoader.load(directory: directory)
                items += suite.diagnostics.items
                sources.merge(suite.sources) { bundle, _ in bundle }
            }
            return (items, sources)
        }
        guard let engine = handzEngine else {
            Issue.record("policies/handz does not compile")
            return ([], [:])
        }
        let result = ScenarioLoader.load(path: scenario, engine: engine)
        return (result.diagnostics.items, result.source.map { [$0.path: $0] } ?? [:])
    }

    @Test func everyCodeHasAFixture() {
        let covered = Set(Self.fixtureNames.map { String($0.prefix { $0 != "-" }) })
        for code in DiagnosticCode.all where !covered.contains(code.id) && Self.codesWithoutFixture[code.id] == nil {
            Issue.record("\(code.id) \(code.name) has no fixture directory Tests/Fixtures/diagnostics/\(code.id)-<slug>/")
        }
        for code in Self.codesWithoutFixture.keys.sorted() {
            #expect(DiagnosticCode.byID[code] != nil, "the allow-list names \(code), which is not a diagnostic code")
        }
    }

    @Test func enoughFixtures() {
        #expect(Self.fixtureNames.count >= Self.minimumFixtureCount, "only \(Self.fixtureNames.count) fixture directories")
    }

    @Test func fixtureNamesStartWithAKnownCode() {
        for name in Self.fixtureNames {
            let code = String(name.prefix { $0 != "-" })
            #expect(DiagnosticCode.byID[code] != nil, "\(name): \(code) is not a diagnostic code")
        }
    }
}
