import ArgumentParser
import HeraldSimulate

/// `herald diff <policy-a> <policy-b> --scenario F`: what a policy change does to a typical week.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Run one seeded scenario through two policies and report what changes.",
        discussion: """
            Both policies see the same users and triggers (same scenario, same seed): the report \
            gives deliveries per user per day, suppressions by reason, the rules and caps whose \
            counts moved, and the users whose week changed most (docs/simulate.md).
            Exit codes: 0 ran, 1 a policy or the scenario is invalid (or requests were rejected), 64 bad usage.
            """
    )

    @OptionGroup var options: SimulationOptions

    @Argument(help: ArgumentHelp("The policy before the change.", valueName: "policy-a"))
    var policyA: String

    @Argument(help: ArgumentHelp("The policy after the change.", valueName: "policy-b"))
    var policyB: String

    func run() throws {
        let a = try DecisionInput.load(policyA)
        let b = try DecisionInput.load(policyB)
        let scenarioA = try SimulationOptions.loadScenario(options.scenario, engine: a.engine)
        let scenarioB = try SimulationOptions.loadScenario(options.scenario, engine: b.engine)
        let diff = SimulationDiff(a: options.simulate(a.engine, scenarioA, policy: policyA, label: "A"),
                                  b: options.simulate(b.engine, scenarioB, policy: policyB, label: "B"))
        if let html = options.html { try SimulationOptions.write(diff.html(), to: html) }
        switch options.format {
        case .text: print(diff.text(), terminator: "")
        case .json: print(diff.json().serialized(pretty: true))
        }
        if !diff.a.errors.isEmpty || !diff.b.errors.isEmpty { throw ExitCode(1) }
    }
}
