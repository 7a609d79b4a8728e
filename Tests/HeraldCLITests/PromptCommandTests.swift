import ArgumentParser
import Foundation
import HeraldContract
import HeraldEngine
import Testing
@testable import herald

/// `herald prompt`, driven in-process.
@Suite struct PromptCommandTests {
    let policy = TestSupport.path("policies/handz")

    static let newUser = #"""
    {"now": "2026-03-10T09:00:00-04:00", "user": {"id": "u1", "account": true, "tier": "free"},
     "permission": "unknown",
     "state": {"onboarding": {"savedFlows": 0, "masteryPlans": 0, "practiceSessions": 0, "maintenanceScheduled": false},
               "session": {"midFlow": false, "softPromptDeclined": false}}}
    """#

    @Test func parsesArguments() throws {
        let command = try PromptCommand.parse([policy, "--request", "-", "--compact"])
        #expect(command.options.request == "-" && command.options.compact)
        #expect(throws: (any Error).self) { try PromptCommand.parse([policy]) }
        #expect(Herald.configuration.subcommands.contains { $0 == PromptCommand.self })
        #expect(PromptCommand.configuration.commandName == "prompt")
    }

    @Test func decidesAPromptRequest() throws {
        let loaded = try DecisionInput.load(policy)
        let decision = try DecisionInput.prompt(Self.newUser, engine: loaded.engine)
        #expect(decision.prompt == .wait)
        #expect(decision.reason == "no_value_yet")
        #expect(decision.rule?.id == "no-value-loop")
        #expect(decision.rule?.source.contains("policies/handz/policy.yaml:") == true)
        let json = decision.json().serialized(pretty: true)
        #expect(json.contains(#""prompt": "wait""#))
    }

    @Test func badRequestExitsOne() throws {
        let loaded = try DecisionInput.load(policy)
        #expect(throws: ExitCode(1)) { try DecisionInput.prompt("{", engine: loaded.engine) }
        // A decide request is not a prompt request: `type` and `at` are unknown fields.
        #expect(throws: ExitCode(1)) {
            try DecisionInput.prompt(#"{"type": "N-MAINT-DUE-TODAY", "at": "2026-03-08T17:45:00Z", "now": "2026-03-08T17:45:00Z", "user": {"id": "u"}}"#,
                                     engine: loaded.engine)
        }
        // A state field of the wrong type.
        #expect(throws: ExitCode(1)) {
            try DecisionInput.prompt(#"{"now": "2026-03-08T17:45:00Z", "user": {"id": "u"}, "state": {"session": {"midFlow": "yes"}}}"#,
                                     engine: loaded.engine)
        }
    }

    @Test func requestErrorsNameTheField() {
        do {
            _ = try PromptRequest.parse(#"{"type": "x", "now": "soon", "user": {"id": "u"}}"#)
            Issue.record("expected errors")
        } catch {
            #expect(DecisionInput.message(error) == """
                error: request: type: unknown field `type`
                error: request: now: expected an RFC 3339 instant, got "soon"
                """)
        }
    }
}
