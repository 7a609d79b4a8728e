import ArgumentParser
import HeraldEngine

/// `herald explain <policy-dir> --request <file|->`: a decision's trace for people, with the
/// YAML line behind each rule.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain how a request is decided: each stage, its outcome and the YAML line that decided.",
        discussion: "Exit codes: 0 explained, 1 the policy is invalid or the request is bad, 64 bad usage."
    )

    @Argument(help: ArgumentHelp("The policy directory (policies/<app>).", valueName: "policy-dir"))
    var policyDirectory: String

    @Option(help: ArgumentHelp("The request JSON file, or `-` for standard input.", valueName: "file|-"))
    var request: String

    func run() throws {
        let loaded = try DecisionInput.load(policyDirectory)
        let text = try DecisionInput.read(request)
        let decision = try DecisionInput.decide(text, engine: loaded.engine)
        print(Explanation.text(decision, sourceLine: DecisionInput.sourceLine(loaded.sources)))
    }
}
