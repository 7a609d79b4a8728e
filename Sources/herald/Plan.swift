import ArgumentParser
import Foundation
import HeraldContract
import HeraldEngine

/// `herald plan <policy-dir> --request <file|->`: decide a set of candidates together.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan a set of notification candidates together and print the plan as JSON.",
        discussion: """
            The request holds the user's context once and `candidates` (type, at, params, subject), \
            plus `horizon` (default 7d); see docs/decisions.md.
            Exit codes: 0 planned, 1 the policy is invalid or the request is bad, 64 bad usage.
            """
    )

    @OptionGroup var options: RequestOptions

    func run() throws {
        let loaded = try DecisionInput.load(options.policyDirectory)
        let text = try DecisionInput.read(options.request)
        let plan = try DecisionInput.answer(text, parse: { text throws(RequestErrors) in try PlanRequest.parse(text) }) { loaded.engine.plan($0) }
        print(plan.json().serialized(pretty: !options.compact))
    }
}
