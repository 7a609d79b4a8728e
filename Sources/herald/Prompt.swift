import ArgumentParser
import HeraldContract
import HeraldEngine

/// `herald prompt <policy-dir> --request <file|->`: may the app ask for OS notification
/// permission now? The prompt decision as JSON.
struct PromptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt",
        abstract: "Decide whether the app may ask for OS notification permission now (ask or wait).",
        discussion: """
            The request is the prompt JSON of docs/decisions.md (`now`, `user`, `prefs`, `permission`, \
            `state`, `history`); `-` reads it from standard input. The answer is `ask` or `wait` with a \
            reason, the rule that decided and a trace.
            Exit codes: 0 decided, 1 the policy is invalid or the request is bad, 64 bad usage.
            """
    )

    @OptionGroup var options: RequestOptions

    func run() throws {
        let loaded = try DecisionInput.load(options.policyDirectory)
        let text = try DecisionInput.read(options.request)
        let decision = try DecisionInput.prompt(text, engine: loaded.engine)
        print(decision.json().serialized(pretty: !options.compact))
    }
}

extension DecisionInput {
    /// Parses a prompt request and decides it; request problems go to standard error, one per
    /// line, exit 1.
    static func prompt(_ text: String, engine: Engine) throws -> PromptDecision {
        try answer(text, parse: { text throws(RequestErrors) in try PromptRequest.parse(text) }) { engine.prompt($0, now: $0.now) }
    }
}
