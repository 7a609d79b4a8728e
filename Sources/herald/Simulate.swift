import ArgumentParser
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSimulate
import HeraldSyntax

/// `herald simulate <policy-dir> --scenario F`: a scenario over days on a virtual clock.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario of users and triggers over days through the policy and summarise what they get.",
        discussion: """
            The scenario (policies/<app>/scenarios/*.yaml, docs/simulate.md) describes the users, \
            the triggers, state over the days and how users react; the same file and seed give the \
            same result, byte for byte. --html writes a self-contained picture of sample users' weeks.
            Exit codes: 0 ran, 1 the policy or scenario is invalid (or requests were rejected), 64 bad usage.
            """
    )

    @OptionGroup var options: SimulationOptions

    @Argument(help: ArgumentHelp("The policy directory.", valueName: "policy-dir"))
    var policyDirectory: String

    func validate() throws {
        if options.format == .markdown {
            throw ValidationError("--format markdown is for `herald diff`; `herald simulate` writes text or json")
        }
    }

    func run() throws {
        let loaded = try DecisionInput.load(policyDirectory)
        let scenario = try SimulationOptions.loadScenario(options.scenario, engine: loaded.engine)
        let result = options.simulate(loaded.engine, scenario, policy: policyDirectory, label: nil)
        if let html = options.html { try SimulationOptions.write(WeekPicture.html(result), to: html) }
        switch options.format {
        case .text: print(result.text(), terminator: "")
        case .json, .markdown: print(result.json().serialized(pretty: true))
        }
        if !result.errors.isEmpty { throw ExitCode(1) }
    }
}

/// What `simulate` and `diff` share: the scenario, the run's overrides and the output.
struct SimulationOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument { case text, json, markdown }

    @Option(help: ArgumentHelp("The scenario file.", valueName: "file"))
    var scenario: String

    @Option(help: "Days to simulate (default: the scenario's `days`).")
    var days: Int?

    @Option(help: "Seed of the pseudo-random draws (default: the scenario's `seed`).")
    var seed: UInt64?

    @Option(help: "Users to simulate (default: the scenario's `users`).")
    var users: Int?

    @Option(help: "Output format (markdown: herald diff only, for a pull request).")
    var format: Format = .text

    @Option(help: ArgumentHelp("Also write a self-contained HTML report here.", valueName: "file"))
    var html: String?

    @Option(help: "Threads to run users on (default: the machine's cores; the result does not depend on it).")
    var threads: Int?

    func validate() throws {
        if let days, !(1...366).contains(days) { throw ValidationError("--days must be from 1 to 366, not \(days)") }
        if let users, !(1...1_000_000).contains(users) { throw ValidationError("--users must be from 1 to 1000000, not \(users)") }
        if let threads, !(1...64).contains(threads) { throw ValidationError("--threads must be from 1 to 64, not \(threads)") }
        if !Terminal.exists(scenario) { throw ValidationError("scenario `\(scenario)` does not exist") }
        if let html, Terminal.isDirectory(html) { throw ValidationError("cannot write `\(html)`: it is a directory") }
    }

    /// Reads the scenario; on errors prints them (file:line:col, code) and exits 1.
    static func loadScenario(_ path: String, engine: Engine) throws -> (scenario: Scenario, source: SourceFile) {
        let result = ScenarioLoader.load(path: path, engine: engine)
        if !result.diagnostics.isEmpty {
            let renderer = DiagnosticRenderer(format: .text, color: false)
            let sources = result.source.map { [$0.path: $0] } ?? [:]
            Terminal.writeError(renderer.render(result.diagnostics.sorted, sources: sources) + "\n")
        }
        guard let scenario = result.scenario, let source = result.source else { throw ExitCode(1) }
        return (scenario, source)
    }

    /// Runs with a progress bar on standard error when it is a terminal. Each thread after the
    /// first compiles `policy` and the scenario's text again (`Simulator.replica`).
    func simulate(_ engine: Engine, _ scenario: (scenario: Scenario, source: SourceFile), policy: String, label: String?) -> SimulationResult {
        let source = scenario.source
        let simulator = Simulator(engine: engine, scenario: scenario.scenario) {
            guard let bundle = Validator.validate(policy, lints: false).bundle else { return nil }
            let engine = Engine(bundle: bundle)
            return ScenarioLoader.load(source, engine: engine).scenario.map { (engine, $0) }
        }
        let run = Simulator.Options(days: days, seed: seed, users: users, threads: threads ?? min(64, max(1, ProcessInfo.processInfo.activeProcessorCount)))
        guard isatty(STDERR_FILENO) != 0 else { return simulator.run(run) }
        let prefix = label.map { "\($0) " } ?? ""
        let result = simulator.run(run) { done, total in
            let width = 30
            let filled = total == 0 ? width : done * width / total
            Terminal.writeError("\r\(prefix)[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total) users")
        }
        Terminal.writeError("\r\u{1B}[K")
        return result
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            Terminal.writeError("error: cannot write `\(path)`: \(error.localizedDescription)\n")
            throw ExitCode(1)
        }
    }
}
