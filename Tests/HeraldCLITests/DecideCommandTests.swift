import ArgumentParser
import Foundation
import HeraldContract
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

    /// A `delivery: all` type: `explain` explains every channel's decision, not only the first.
    static let paymentFailed = """
        { "type": "N-BILLING-PAYMENT-FAILED", "at": "2026-03-10T15:00:00-04:00", "now": "2026-03-10T15:00:00-04:00", "params": { "eventId": "ev-9" },
          "user": { "id": "u1", "account": true, "tier": "pro" }, "prefs": { "timezone": "America/New_York" },
          "permission": "denied", "state": { "billing": { "issue": true } } }
        """

    @Test func explainExplainsEveryChannelOfADeliveryAllType() throws {
        let loaded = try DecisionInput.load(policy)
        let decisions = try DecisionInput.decideAll(Self.paymentFailed, engine: loaded.engine)
        let text = Explanation.text(decisions, sourceLine: DecisionInput.sourceLine(loaded.sources))
        let blocks = text.components(separatedBy: "\n\n")
        #expect(blocks.count == 2)
        // Push needs OS permission, which is denied; the in-app alert does not.
        #expect(blocks.first?.hasPrefix("N-BILLING-PAYMENT-FAILED → suppress (system_denied) on push") == true)
        #expect(blocks.last?.hasPrefix("N-BILLING-PAYMENT-FAILED → schedule (on_time) at 2026-03-10T15:00:00-04:00 on in_app") == true)

        let json = Explanation.json(decisions, sourceLine: DecisionInput.sourceLine(loaded.sources))
        let entries = json["explanations"]?.elements ?? []
        #expect(entries.map { $0["channel"]?.stringValue } == ["push", "in_app"])
        #expect(entries.map { $0["reason"]?.stringValue } == ["system_denied", "on_time"])
        #expect(entries.allSatisfy { ($0["steps"]?.elements ?? []).count > 5 })
        // A cited step quotes its YAML line.
        #expect(entries.contains { ($0["steps"]?.elements ?? []).contains { $0["line"]?.stringValue?.contains(" | ") == true } })
    }

    @Test func explainOfASingleChannelTypeIsUnchanged() throws {
        let loaded = try DecisionInput.load(policy)
        let text = try DecisionInput.read(TestSupport.path("docs/examples/inbox-burst.json"))
        let decision = try DecisionInput.decide(text, engine: loaded.engine)
        let decisions = try DecisionInput.decideAll(text, engine: loaded.engine)
        let sourceLine = DecisionInput.sourceLine(loaded.sources)
        #expect(Explanation.text(decisions, sourceLine: sourceLine) == Explanation.text(decision, sourceLine: sourceLine))
        #expect(Explanation.json(decisions, sourceLine: sourceLine)["explanations"]?.elements?.count == 1)
    }

    @Test func missingPolicyDirectoryIsAUsageError() {
        #expect(throws: ValidationError.self) { try DecisionInput.load("/nonexistent/policy") }
    }

    @Test func missingRequestFileIsAUsageError() {
        #expect(throws: ExitCode(64)) { try DecisionInput.read("/nonexistent/request.json") }
    }
}
