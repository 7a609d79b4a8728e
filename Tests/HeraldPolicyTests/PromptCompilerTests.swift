import Foundation
import HeraldSyntax
import Testing
@testable import HeraldPolicy

/// `prompt:` — keys, types, reasons, expressions and ids, each with its diagnostic.
@Suite struct PromptCompilerTests {
    static let reasons = """
    reasons:
      no_value_yet: the user has not finished a value loop
      mid_flow: the user is in the middle of a task

    """

    static func validate(_ prompt: String, reasons: String = reasons) -> ValidationResult {
        CompilerTestSupport.validateMinimal(plus: reasons + prompt)
    }

    @Test func compilesRulesInOrderWithDefaultIDs() throws {
        let result = Self.validate("""
        prompt:
          description: when to ask
          wait:
            - { id: no-value, when: "state.streak == 0", reason: no_value_yet }
            - { when: "has(state.lastOpenedAt) && since(state.lastOpenedAt) < 1h", reason: mid_flow }
            - { when: "prefs.pausedAll", reason: denied_before }
        """)
        #expect(CompilerTestSupport.codes(result) == [])
        let prompt = try #require(result.bundle?.prompt)
        #expect(prompt.wait.map(\.id) == ["no-value", "prompt.wait[1]", "prompt.wait[2]"])
        #expect(prompt.wait.map(\.reason) == ["no_value_yet", "mid_flow", "denied_before"])
        #expect(prompt.description == "when to ask")
        #expect(prompt.span?.start.line == 20)
        #expect(prompt.wait[0].when.source == "state.streak == 0")
    }

    @Test func noSectionMeansNoRules() throws {
        let result = CompilerTestSupport.validateMinimal()
        let prompt = try #require(result.bundle?.prompt)
        #expect(prompt.wait.isEmpty)
        #expect(prompt.span == nil)
    }

    @Test func unknownKeysSuggestTheRightOne() {
        let result = Self.validate("""
        prompt:
          waits:
            - { when: "true", reason: mid_flow }
        """)
        #expect(CompilerTestSupport.codes(result) == ["H0201"])
        #expect(result.diagnostics.sorted.first?.suggestion == "wait")
        let rule = Self.validate("""
        prompt:
          wait:
            - { id: a, wehn: "true", reason: mid_flow }
        """)
        #expect(CompilerTestSupport.codes(rule) == ["H0201"])
        #expect(rule.diagnostics.sorted.first?.suggestion == "when")
    }

    @Test func missingWhenOrReason() {
        let result = Self.validate("""
        prompt:
          wait:
            - { id: a, reason: mid_flow }
            - { id: b, when: "true" }
        """)
        #expect(CompilerTestSupport.codes(result) == ["H0204", "H0204"])
    }

    @Test func wrongShapes() {
        #expect(CompilerTestSupport.codes(Self.validate("prompt: [a]\n")) == ["H0202"])
        #expect(CompilerTestSupport.codes(Self.validate("prompt: { wait: { when: x } }\n")) == ["H0202"])
        #expect(CompilerTestSupport.codes(Self.validate("prompt:\n  wait:\n    - just-a-word\n")) == ["H0202"])
    }

    @Test func unknownReasonSuggestsADeclaredOne() throws {
        let result = Self.validate("""
        prompt:
          wait:
            - { when: "true", reason: no_vaule_yet }
        """)
        #expect(CompilerTestSupport.places(result) == ["H0407 22:31"])
        let d = try #require(result.diagnostics.sorted.first)
        #expect(d.message == "unknown prompt reason `no_vaule_yet`")
        #expect(d.suggestion == "no_value_yet")
    }

    @Test func suppressionReasonsAreNotPromptReasons() {
        let result = Self.validate("""
        prompt:
          wait:
            - { when: "true", reason: paused_all }
        """)
        #expect(CompilerTestSupport.codes(result) == ["H0407"])
    }

    @Test func eligibleIsTheReasonOfAsk() throws {
        let result = Self.validate("""
        prompt:
          wait:
            - { when: "true", reason: eligible }
        """)
        #expect(CompilerTestSupport.codes(result) == ["H0407"])
        #expect(try #require(result.diagnostics.sorted.first).message == "`eligible` is the reason of `ask`, not of a wait rule")
    }

    @Test func expressionsAreTypeChecked() {
        // Not bool; an unknown state field; params do not exist in a prompt; an unchecked optional.
        let result = Self.validate("""
        prompt:
          wait:
            - { when: "state.streak + 1", reason: mid_flow }
            - { when: "state.streek > 0", reason: mid_flow }
            - { when: "params.count > 0", reason: mid_flow }
            - { when: "since(state.lastOpenedAt) < 1h", reason: mid_flow }
        """)
        #expect(CompilerTestSupport.codes(result) == ["H0310", "H0306", "H0306", "H0311"])
        #expect(result.diagnostics.sorted[1].suggestion == "state.streak")
    }

    @Test func ruleIDsAreUniqueAmongAllRules() {
        let twice = Self.validate("""
        prompt:
          wait:
            - { id: a, when: "true", reason: mid_flow }
            - { id: a, when: "false", reason: mid_flow }
        """)
        #expect(CompilerTestSupport.codes(twice) == ["H0209"])
        let clash = Self.validate("""
        suppress:
          - { id: quiet, when: "true", reason: muted }
        prompt:
          wait:
            - { id: quiet, when: "true", reason: mid_flow }
        """)
        #expect(CompilerTestSupport.codes(clash) == ["H0209"])
        let badID = Self.validate("""
        prompt:
          wait:
            - { id: "a b", when: "true", reason: mid_flow }
        """)
        #expect(CompilerTestSupport.codes(badID) == ["H0210"])
    }

    @Test func promptIsASingleSection() {
        let dir = CompilerTestSupport.makeBundle([
            "a.yaml": CompilerTestSupport.minimalBundle + "prompt: { wait: [] }\n",
            "b.yaml": "prompt: { wait: [] }\n",
        ])
        #expect(CompilerTestSupport.codes(Validator.validate(dir, lints: false)) == ["H0005"])
    }

    @Test func keysAreInTheTableAndTheDocs() throws {
        #expect(LanguageKeys.policySections.contains("prompt"))
        #expect(LanguageKeys.places["prompt"]?.keys == ["wait", "description"])
        #expect(LanguageKeys.places["promptRule"]?.required == ["when", "reason"])
        let doc = LanguageDocTests.doc
        #expect(doc.contains("### `prompt`"))
        let missing = PromptPolicy.builtInReasons.map(\.code).filter { !doc.contains("| `\($0)` |") }
        #expect(missing.isEmpty, "prompt reasons not in docs/language.md: \(missing)")
    }

    @Test func theSeedBundlesCompileTheirPromptRules() throws {
        for (app, ids) in [("handz", ["guest-mode", "mid-flow", "no-value-loop", "not-now"]),
                           ("rin", ["during-onboarding", "no-first-value"]), ("kwilt", ["no-intent"]),
                           ("urbannest", ["no-push-enable"]),
                           ("crescender", ["no-toggle-enabled", "category-while-global-on"])] {
            let result = Validator.validate(CompilerTestSupport.repoRoot + "/policies/" + app, lints: false)
            let bundle = try #require(result.bundle, "\(app) does not validate")
            #expect(bundle.prompt.wait.map(\.id) == ids)
        }
    }
}
