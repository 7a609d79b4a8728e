import ArgumentParser
import HeraldContract
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

    @Option(help: "Output format: text (for people) or json.")
    var format: ExplainFormat = .text

    func run() throws {
        let loaded = try DecisionInput.load(policyDirectory)
        let text = try DecisionInput.read(request)
        // Every channel's decision of a `delivery: all` type; one decision for any other.
        let decisions = try DecisionInput.decideAll(text, engine: loaded.engine)
        let sourceLine = DecisionInput.sourceLine(loaded.sources)
        switch format {
        case .text: print(Explanation.text(decisions, sourceLine: sourceLine))
        case .json: print(Explanation.json(decisions, sourceLine: sourceLine).serialized(pretty: true))
        }
    }
}

/// `herald explain --format`.
enum ExplainFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}
