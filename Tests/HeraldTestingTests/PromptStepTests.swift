import Testing
import HeraldSyntax
import HeraldContract
import HeraldEngine
import HeraldPolicy
@testable import HeraldTesting

/// A stand-in prompt function: waits `mid_flow` (rule `mid-flow`) when `state.midFlow` is
/// true, `already_granted` when permission is granted, else asks; `reason` of an ask reports
/// how much history it saw.
private let fakePrompt: PolicyTestRunner.Prompt = { request, now in
    let policy = Decision.Policy(name: "fake", digest: "0")
    if request.user.permission == .granted { return .success(PromptDecision(prompt: .wait, reason: "already_granted", policy: policy)) }
    if request.user.state["midFlow"]?.boolValue == true {
        return .success(PromptDecision(prompt: .wait, reason: "mid_flow", rule: Decision.Rule(id: "mid-flow", source: "p.yaml:3:7"), policy: policy))
    }
    return .success(PromptDecision(prompt: .ask, reason: request.user.history.isEmpty ? "eligible" : "seen:\(request.user.history.count)", policy: policy))
}

private let fakeDecide: PolicyTestRunner.Decide = { request, _ in
    .success(Decision(action: .schedule, reason: "on_time", deliverAt: request.at, type: request.type, key: "k\(request.at)",
                      policy: Decision.Policy(name: "fake", digest: "0")))
}

private func parse(_ text: String) -> ([PolicyTestCase], Diagnostics) {
    var diagnostics = Diagnostics()
    let cases = PolicyTestLoader.parse(SourceFile(path: "t.yaml", text: text), diagnostics: &diagnostics)
    return (cases, diagnostics)
}

@Suite struct PromptStepTests {
    static let runner = PolicyTestRunner(decide: fakeDecide, prompt: fakePrompt)

    @Test func promptStepsCheckThePromptDecision() throws {
        let (cases, diagnostics) = parse("""
        tests:
          - name: mid-flow waits, then asks
            given: { user: { id: u1 }, permission: unknown }
            when:
              - { prompt: true, now: "2026-03-10T10:00:00Z", state: { midFlow: true } }
              - { prompt: true, now: "2026-03-10T10:05:00Z", state: { midFlow: false } }
              - { prompt: true, now: "2026-03-10T10:06:00Z", permission: granted }
            then:
              - { prompt: wait, reason: mid_flow, rule: mid-flow }
              - { prompt: ask, reason: eligible, rule: null }
              - { prompt: wait, reason: already_granted, policy: { name: fake } }
        """)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let test = try #require(cases.first)
        #expect(test.steps.map(\.isPrompt) == [true, true, true])
        let result = Self.runner.run(test)
        #expect(result.passed, "\(result.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
        #expect(result.prompts.map(\.reason) == ["mid_flow", "eligible", "already_granted"])
        #expect(result.decisions.isEmpty)
    }

    @Test func promptAndTriggerStepsMix() throws {
        // The given trigger fields are dropped for the prompt step; `now` defaults to `at`; the
        // scheduled decision before it is in its history.
        let (cases, diagnostics) = parse("""
        tests:
          - name: a reminder, then a prompt
            given: { user: { id: u1 }, type: greet, at: "2026-03-10T10:00:00Z", params: { name: Ana }, subject: s }
            when:
              - { at: "2026-03-10T10:00:00Z" }
              - { prompt: true }
            then:
              - { action: schedule }
              - { prompt: ask, reason: "seen:1" }
        """)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let test = try #require(cases.first)
        #expect(test.steps.map(\.isPrompt) == [false, true])
        let json = PolicyTestRunner.promptRequest(given: test.given, when: test.steps[1].when, fedBack: [])
        #expect(json.members?.map(\.key).sorted() == ["now", "user"])
        #expect(json["now"] == "2026-03-10T10:00:00Z")
        let result = Self.runner.run(test)
        #expect(result.passed, "\(result.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
        #expect(result.decisions.count == 1 && result.prompts.count == 1)
        #expect(TestReport.bundleStepCount(result) == 2)
    }

    @Test func failuresNameTheField() throws {
        let (cases, _) = parse("""
        tests:
          - name: wrong
            given: { user: { id: u1 } }
            when: { prompt: true, now: "2026-03-10T10:00:00Z", state: { midFlow: true } }
            then: { prompt: ask, reason: eligible, rule: other }
        """)
        let result = Self.runner.run(try #require(cases.first))
        #expect(result.failures.map(\.field) == ["prompt", "reason", "rule"])
        #expect(result.failures[0].expected == "ask" && result.failures[0].actual == "wait")
        #expect(result.failures[2].actual == "mid-flow")
        #expect(result.failures[0].span.start.line == 5)
    }

    @Test func badPromptRequestsFailWithoutCrashing() throws {
        let (cases, _) = parse("""
        tests:
          - name: no now
            given: { user: { id: u1 } }
            when: { prompt: true }
            then: { prompt: ask }
        """)
        let test = try #require(cases.first)
        let result = Self.runner.run(test)
        #expect(result.failures.first?.field == "request")
        #expect(result.failures.first?.actual.contains("now") == true)
        let noPrompt = PolicyTestRunner(decide: fakeDecide).run(test)
        #expect(noPrompt.failures.first?.field == "request")
    }

    @Test func promptStepsAreCheckedWhenRead() {
        func first(_ text: String) -> Diagnostic? { parse(text).1.first }
        // `prompt` must be true; trigger fields do not belong in a prompt step; decision fields
        // are not prompt fields; `prompt` is no decide field; `prompt` does not belong in given.
        #expect(first("tests:\n  - { name: x, when: { prompt: 'true' }, then: { prompt: ask } }")?.code == .testFileStructure)
        #expect(first("tests:\n  - { name: x, when: { prompt: false }, then: { prompt: ask } }")?.code == .testFileStructure)
        #expect(first("tests:\n  - { name: x, when: { prompt: true, type: a }, then: { prompt: ask } }")?.code == .testUnknownKey)
        #expect(first("tests:\n  - { name: x, when: { prompt: true }, then: { action: schedule } }")?.code == .testUnknownKey)
        #expect(first("tests:\n  - { name: x, when: { prompt: true }, then: { reasn: x } }")?.suggestion == "reason")
        #expect(first("tests:\n  - { name: x, when: { type: a }, then: { prompt: ask } }")?.code == .testUnknownKey)
        #expect(first("tests:\n  - { name: x, given: { prompt: true }, when: { type: a }, then: { action: schedule } }")?.code == .testUnknownKey)
    }

    @Test func coverageCountsPromptRulesAndReasons() throws {
        let result = Validator.validate(TestSupportPaths.repo + "/Tests/Fixtures/engine/prompt", lints: false)
        let bundle = try #require(result.bundle)
        let engine = Engine(bundle: bundle)
        let request = try PromptRequest(json: ["now": "2026-03-10T12:00:00Z", "user": ["id": "u", "account": true],
                                               "state": ["savedFlows": 1, "midFlow": true]])
        let decision = try engine.prompt(request, now: request.now).get()
        let coverage = Coverage(bundle: bundle, decisions: [], prompts: [decision])
        #expect(coverage.declared.contains(Coverage.Item(kind: .rule, id: "mid-flow")))
        #expect(coverage.reached.contains(Coverage.Item(kind: .rule, id: "mid-flow")))
        #expect(coverage.reached.contains(Coverage.Item(kind: .reason, id: "mid_flow")))
        #expect(!coverage.reached.contains(Coverage.Item(kind: .rule, id: "guest")))
    }
}

private enum TestSupportPaths {
    static let repo: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.dropLast(3).joined(separator: "/")
    }()
}
