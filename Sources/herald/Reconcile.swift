import ArgumentParser
import Foundation
import HeraldContract
import HeraldEngine

/// `herald reconcile <policy-dir> --request <file|->`: what to add, keep, update and cancel so
/// the pending notifications match a plan.
struct ReconcileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Plan a set of candidates and say what to add, keep, update and cancel among the pending notifications.",
        discussion: """
            The request is a plan request (user context, `candidates`, `horizon`) plus `pending`, the \
            notifications scheduled and not yet delivered; `history` holds only what already happened. \
            See docs/decisions.md.
            Exit codes: 0 reconciled, 1 the policy is invalid or the request is bad, 64 bad usage.
            """
    )

    @OptionGroup var options: RequestOptions

    func run() throws {
        let loaded = try DecisionInput.load(options.policyDirectory)
        let text = try DecisionInput.read(options.request)
        let result = try DecisionInput.answer(text, parse: { text throws(RequestErrors) in try ReconcileRequest.parse(text) }) { loaded.engine.reconcile($0) }
        print(result.reconciliation.json().serialized(pretty: !options.compact))
    }
}
