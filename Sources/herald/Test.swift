public import ArgumentParser
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSyntax
import HeraldTesting

extension TestReport.Format: ExpressibleByArgument {}

/// `herald test <dir>...`: run each policy's scenario tests (`<dir>/tests/*.yaml`).
struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run policy scenario tests (tests/*.yaml beside each policy).",
        discussion: """
            Each directory is a policy directory; its tests/ folder holds the scenario files \
            (docs/testing.md). Prints one line per failing expectation (with the reason and rule \
            when `action` differs) and per problem of an invalid test, in test order, then \
            `N passed, M failed`; an invalid test counts as failed. The full diagnostics of test \
            files also go to standard error.
            Exit codes: 0 all passed, 1 a test failed or a bundle or test file is invalid, 64 bad usage.
            """
    )

    @Argument(help: ArgumentHelp("Policy directories whose tests to run.", valueName: "dir"))
    var directories: [String] = []

    @Option(help: "Output format.")
    var format: TestReport.Format = .text

    @Flag(help: "Report the rules, caps and reason codes no test reached.")
    var coverage = false

    @Flag(name: .customLong("no-color"), help: "Do not color diagnostics.")
    var noColor = false

    func validate() throws {
        if directories.isEmpty {
            throw ValidationError("no policy directory given; try `herald test policies/<app>`")
        }
        for directory in directories where !Terminal.isDirectory(directory) {
            throw ValidationError("`\(directory)` is not a directory")
        }
    }

    func run() throws {
        var bundles: [TestReport.BundleResults] = []
        var problems: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        var invalid = false
        for directory in directories {
            let validation = Validator.validate(directory)
            sources.merge(validation.sources) { a, _ in a }
            guard let bundle = validation.bundle else {
                invalid = true
                problems += validation.diagnostics.items.filter { $0.severity == .error }
                continue
            }
            let suite = PolicyTestLoader.load(directory: directory)
            sources.merge(suite.sources) { a, _ in a }
            problems += suite.diagnostics.items
            if suite.diagnostics.hasErrors { invalid = true }
            let engine = Engine(bundle: bundle)
            let runner = PolicyTestRunner(engine: engine)
            let results = runner.run(suite)
            let covered = coverage
                ? Coverage(bundle: bundle, decisions: results.flatMap(\.decisions), prompts: results.flatMap(\.prompts)) : nil
            bundles.append(.init(directory: directory, results: results, coverage: covered))
        }
        if !problems.isEmpty {
            let renderer = DiagnosticRenderer(format: .text, color: !noColor && Terminal.stdoutWantsColor)
            Terminal.writeError(renderer.render(problems, sources: sources) + "\n")
        }
        switch format {
        case .text: print(TestReport.text(bundles), terminator: "")
        case .junit: print(TestReport.junit(bundles), terminator: "")
        case .json: print(TestReport.json(bundles), terminator: "")
        }
        if invalid || TestReport.failedCount(bundles) > 0 { throw ExitCode(1) }
    }
}
