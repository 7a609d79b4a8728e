import ArgumentParser
import Foundation
import HeraldEngine
import HeraldSimulate
import HeraldSyntax
import HeraldTesting

/// `herald diff <policy-a> <policy-b> --scenario F`, or `herald diff --base REV <policy-dir>
/// --scenario F`: what a policy change does to a typical week.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Run one seeded scenario through two policies and report what changes.",
        discussion: """
            Both policies see the same users and triggers (same scenario, same seed): the report \
            gives deliveries per user per day, suppressions by reason, the rules and caps whose \
            counts moved, and the users whose week changed most (docs/simulate.md). With --base, \
            the policy before the change is the same directory at that git revision, read from \
            git (nothing is checked out). --format markdown adds the entries that changed \
            (file:line) and the policy tests' result on both sides, for a pull request (docs/ci.md).
            Exit codes: 0 ran, 1 a policy or the scenario is invalid (or requests were rejected), 64 bad usage \
            (an unknown revision, a directory outside git or absent at that revision).
            """
    )

    @OptionGroup var options: SimulationOptions

    @Option(help: ArgumentHelp("Compare <policy-dir> with itself at this git revision (HEAD~1, main, a commit).", valueName: "revision"))
    var base: String?

    @Argument(help: ArgumentHelp("The policy before the change and the policy after it; with --base, only the policy after it.",
                                 valueName: "policy"))
    var policies: [String] = []

    func validate() throws {
        if base != nil, policies.count != 1 {
            throw ValidationError("with --base, give one policy directory (the working tree's), not \(policies.count)")
        }
        if base == nil, policies.count != 2 {
            throw ValidationError("give two policy directories (before and after), or --base <revision> and one")
        }
        for policy in policies where !Terminal.exists(policy) {
            throw ValidationError("`\(policy)` does not exist")
        }
    }

    func run() throws {
        if let base {
            let directory = policies[0]
            let revision: GitRevision
            do {
                revision = try GitRevision(directory: directory, revision: base)
            } catch {
                Terminal.writeError("error: \(error)\n")
                throw ExitCode(64)
            }
            defer { revision.remove() }
            let label = revision.prefix.isEmpty ? "." : revision.prefix
            try compare(revision.directory, directory,
                        labels: ("\(label) at `\(base)` (\(revision.commit.prefix(12)))", "\(label) in the working tree"),
                        roots: (revision.root, revision.top))
        } else {
            try compare(policies[0], policies[1], labels: (policies[0], policies[1]), roots: nil)
        }
    }

    /// Runs the scenario through both policies and prints the report. `roots`: where each
    /// side's repository starts, so that the files of both sides pair up by their place in it
    /// (nil: by their path relative to each policy directory's parent).
    func compare(_ before: String, _ after: String, labels: (String, String), roots: (String, String)?) throws {
        let a = try DecisionInput.load(before)
        let b = try DecisionInput.load(after)
        let scenarioA = try SimulationOptions.loadScenario(options.scenario, engine: a.engine)
        let scenarioB = try SimulationOptions.loadScenario(options.scenario, engine: b.engine)
        let diff = SimulationDiff(a: options.simulate(a.engine, scenarioA, policy: before, label: "A"),
                                  b: options.simulate(b.engine, scenarioB, policy: after, label: "B"))
        if let html = options.html { try SimulationOptions.write(diff.html(), to: html) }
        switch options.format {
        case .text: print(diff.text(), terminator: "")
        case .json: print(diff.json().serialized(pretty: true))
        case .markdown:
            let rootA = roots?.0 ?? Self.parent(of: before)
            let rootB = roots?.1 ?? Self.parent(of: after)
            let changes = PolicyChanges(before: Self.relative(a.sources, to: rootA), after: Self.relative(b.sources, to: rootB))
            let report = DiffReport(before: labels.0, after: labels.1, changes: changes, simulation: diff,
                                    tests: (Self.tests(before, engine: a.engine), Self.tests(after, engine: b.engine)))
            print(report.markdown(), terminator: "")
        }
        if !diff.a.errors.isEmpty || !diff.b.errors.isEmpty { throw ExitCode(1) }
    }

    /// Read files keyed by their path below `root` (the path as read when it is not below it).
    static func relative(_ sources: [String: SourceFile], to root: String) -> [String: SourceFile] {
        let base = URL(fileURLWithPath: root).standardizedFileURL.path + "/"
        var out: [String: SourceFile] = [:]
        for (path, file) in sources {
            let full = URL(fileURLWithPath: path).standardizedFileURL.path
            out[full.hasPrefix(base) ? String(full.dropFirst(base.count)) : path] = file
        }
        return out
    }

    /// The directory two levels up (`policies/<app>` → the repository), where a policy and its
    /// catalog both sit.
    static func parent(of directory: String) -> String {
        URL(fileURLWithPath: directory).standardizedFileURL.deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The policy tests of one side, counted as `herald test` counts them, on its loaded engine.
    static func tests(_ directory: String, engine: Engine) -> DiffReport.Tests {
        let suite = PolicyTestLoader.load(directory: directory)
        let results = PolicyTestRunner(engine: engine).run(suite)
        let failed = results.filter { !$0.passed }
        return DiffReport.Tests(passed: results.count - failed.count, failed: failed.count, invalid: suite.diagnostics.hasErrors,
                                failures: failed.map { ($0.name, "\($0.span.path):\($0.span.start.line)") })
    }
}
