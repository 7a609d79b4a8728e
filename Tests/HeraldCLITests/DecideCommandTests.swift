import ArgumentParser
import Foundation
import HeraldEngine
import Testing
@testable import herald

/// `herald decide` and `herald explain`, driven in-process (the commands are registered in
/// Herald.swift at merge; until then the binary does not know them).
@Suite struct DecideCommandTests {
    let policy = TestSupport.path("policies/handz")

    @Test func parsesArguments() throws {
        let command = try Decide.parse([policy, "--request", "-", "--compact"])
        #expect(command.options.request == "-" && command.options.compact)
        _ = try Explain.parse([policy, "--request", "x.json"])
        #expect(throws: (any Error).self) { try Decide.parse([policy]) }
    }

    @Test func decidesTheExamples() throws {
        let loaded = try DecisionInput.load(policy)
        for name in ["due-today", "quiet-hours", "inbox-burst", "denied-fallback"] {
            let text = try DecisionInput.read(TestSupport.path("docs/examples/\(name).json"))
            let decision = try DecisionInput.decide(text, engine: loaded.engine)
            #expect(decision.policy.name == "handz-default")
            #expect(decision.trace.count == 10)
        }
    }

    @Test func badRequestExitsOne() throws {
        let loaded = try DecisionInput.load(policy)
        #expect(throws: ExitCode(1)) {
            try DecisionInput.decide(#"{"type": "N-MAINT-DUE-TODAY", "at": "tomorrow"}"#, engine: loaded.engine)
        }
        #expect(throws: ExitCode(1)) { try DecisionInput.decide("{", engine: loaded.engine) }
        #expect(throws: ExitCode(1)) {
            try DecisionInput.decide(#"{"type": "N-MAINT-DUE-TODYA", "at": "2026-03-08T17:45:00Z", "now": "2026-03-08T17:45:00Z", "user": {"id": "u"}}"#, engine: loaded.engine)
        }
    }

    @Test func requestErrorMessagesNameTheField() throws {
        let errors = RequestErrors([RequestError(path: "at", message: "expected an RFC 3339 instant, got \"tomorrow\"")])
        #expect(DecisionInput.message(errors) == #"error: request: at: expected an RFC 3339 instant, got "tomorrow""#)
    }

    @Test func explainShowsTheDecidingYAMLLine() throws {
        let loaded = try DecisionInput.load(policy)
        let text = try DecisionInput.read(TestSupport.path("docs/examples/inbox-burst.json"))
        let decision = try DecisionInput.decide(text, engine: loaded.engine)
        let explanation = Explanation.text(decision, sourceLine: DecisionInput.sourceLine(loaded.sources))
        #expect(explanation.hasPrefix("N-INBOX-NEW-IMPORT → schedule (burst_spacing)"))
        #expect(explanation.contains("decided by global-burst at "))
        #expect(explanation.contains("| " + "  - { id: global-burst, scope: global, max: 1, per: 1m, over: defer }"))
    }

    @Test func missingPolicyDirectoryIsAUsageError() {
        #expect(throws: ValidationError.self) { try DecisionInput.load("/nonexistent/policy") }
    }

    @Test func missingRequestFileIsAUsageError() {
        #expect(throws: ExitCode(64)) { try DecisionInput.read("/nonexistent/request.json") }
    }
}
