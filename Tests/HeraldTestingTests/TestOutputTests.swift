import Testing
import HeraldSyntax
import HeraldContract
import HeraldEngine
@testable import HeraldTesting

/// Suppresses with reason `muted` (rule `muted-rule`) when `state.muted`, with reason
/// `rate_limited` (cap `daily`) when `state.capped`, otherwise schedules at `at` (`on_time`).
private let decide: PolicyTestRunner.Decide = { request, _ in
    let muted = request.state["muted"]?.boolValue == true
    let capped = request.state["capped"]?.boolValue == true
    let suppressed = muted || capped
    return .success(Decision(
        action: suppressed ? .suppress : .schedule,
        reason: muted ? "muted" : capped ? "rate_limited" : "on_time",
        deliverAt: suppressed ? nil : request.at,
        utcOffset: 0,
        type: request.type,
        rule: muted ? Decision.Rule(id: "muted-rule", source: "policy.yaml:40:7") : nil,
        cap: capped ? "daily" : nil,
        policy: Decision.Policy(name: "fake", digest: "0")))
}

private func load(_ text: String, path: String = "t.yaml") -> PolicyTestSuite {
    var diagnostics = Diagnostics()
    let file = SourceFile(path: path, text: text)
    let cases = PolicyTestLoader.parse(file, diagnostics: &diagnostics)
    return PolicyTestSuite(directory: "d", cases: cases, diagnostics: diagnostics, sources: [path: file])
}

private func report(_ suite: PolicyTestSuite) -> [TestReport.BundleResults] {
    [TestReport.BundleResults(directory: "d", results: PolicyTestRunner(decide: decide).run(suite), coverage: nil)]
}

/// `herald test`'s output: invalid entries count as failed in their place, instants without an
/// offset are test-file diagnostics, and a failed `action` says why.
@Suite("Test output")
struct TestOutputTests {
    static let mixed = """
    tests:
      - name: first passes
        given: { user: { id: u1 } }
        when: { type: greet, at: "2026-03-10T10:00:00Z" }
        then: { action: schedule }
      - name: misspelt prefs
        given: { user: { id: u1 }, prefz: { timezone: UTC } }
        when: { type: greet, at: "2026-03-10T10:00:00Z" }
        then: { action: schedule }
      - name: last fails
        given: { user: { id: u1 } }
        when: { type: greet, at: "2026-03-10T10:00:00Z" }
        then: { action: batch }
    """

    @Test func anInvalidEntryIsKeptInPlaceAndNotRun() throws {
        let suite = load(Self.mixed)
        #expect(suite.cases.map(\.name) == ["first passes", "misspelt prefs", "last fails"])
        #expect(suite.cases.map(\.isValid) == [true, false, true])
        let problem = try #require(suite.cases[1].problems.first)
        #expect(problem.code == .testUnknownKey)
        #expect(problem.span?.start.line == 7)
        #expect(suite.diagnostics.items.map(\.code) == [.testUnknownKey])

        let results = PolicyTestRunner(decide: decide).run(suite)
        #expect(results.map(\.passed) == [true, false, false])
        #expect(results[1].decisions.isEmpty, "an invalid test must not run")
        #expect(results[1].problems.map(\.code) == [.testUnknownKey])
    }

    @Test func anInvalidEntryCountsAsFailedInEveryFormat() {
        let bundles = report(load(Self.mixed))
        #expect(TestReport.passedCount(bundles) == 1)
        #expect(TestReport.failedCount(bundles) == 2)

        let lines = TestReport.text(bundles).split(separator: "\n").map(String.init)
        #expect(lines == [
            "t.yaml:7:32: FAIL misspelt prefs: error[H0602]: unknown request field `prefz` in `given` (did you mean `prefs`?)",
            "t.yaml:13:21: FAIL last fails: action: expected batch, got schedule (reason on_time)",
            "1 passed, 2 failed",
        ])

        let junit = TestReport.junit(bundles)
        #expect(junit.contains("<testsuites tests=\"3\" failures=\"2\">"))
        #expect(junit.contains("<testsuite name=\"d\" tests=\"3\" failures=\"2\">"))
        #expect(junit.contains("<failure message=\"error[H0602]: unknown request field `prefz` in `given` (did you mean `prefs`?)\" type=\"H0602\">t.yaml:7:32: "))

        let json = TestReport.json(bundles)
        #expect(json.contains("\"passed\":1,\"failed\":2"))
        #expect(json.contains("{\"name\":\"misspelt prefs\",\"file\":\"t.yaml\",\"line\":6,\"passed\":false,\"failures\":[],\"problems\":[{\"code\":\"H0602\",\"severity\":\"error\""))
    }

    @Test func aFileWithoutEntriesIsOneFailedTest() throws {
        let suite = load("test:\n  - { name: x, when: { type: a }, then: { action: schedule } }\n", path: "dir/typo.yaml")
        #expect(suite.cases.map(\.name) == ["(file typo.yaml)"])
        #expect(suite.cases.first?.problems.map(\.code) == [.testUnknownKey])
        let bundles = report(suite)
        #expect(TestReport.text(bundles) == """
            dir/typo.yaml:1:1: FAIL (file typo.yaml): error[H0602]: unknown key `test` in a test file (did you mean `tests`?)
            0 passed, 1 failed

            """)

        let broken = load("tests:\n  - { name: x\n")
        #expect(broken.cases.count == 1)
        #expect(broken.cases.first?.isValid == false)
        #expect(TestReport.failedCount(report(broken)) == 1)
    }

    @Test func entriesWithoutAUsableNameAreNumbered() {
        let suite = load("tests:\n  - { when: { type: a }, then: {} }\n  - just text\n")
        #expect(suite.cases.map(\.name) == ["(test 1)", "(test 2)"])
        #expect(suite.cases.allSatisfy { !$0.isValid })
        #expect(suite.cases.map { $0.problems.first?.code } == [.testFileStructure, .testFileStructure])
    }

    @Test func aDuplicateNameMakesTheSecondInvalid() {
        let suite = load("""
        tests:
          - { name: same, given: { user: { id: u1 } }, when: { type: a, at: "2026-03-10T10:00:00Z" }, then: { action: schedule } }
          - { name: same, given: { user: { id: u1 } }, when: { type: a, at: "2026-03-10T10:00:00Z" }, then: { action: schedule } }
        """)
        // `load(directory:)` checks names across files; the same check on one parsed file:
        var cases = suite.cases
        var diagnostics = suite.diagnostics
        PolicyTestLoader.markDuplicateNames(&cases, diagnostics: &diagnostics)
        #expect(cases.map(\.isValid) == [true, false])
        #expect(cases[1].problems.map(\.code) == [.testDuplicateName])
        #expect(cases[1].problems.first?.notes.first?.span?.start.line == 2)
        #expect(diagnostics.items.map(\.code) == [.testDuplicateName])
    }

    // MARK: - Instants without an offset

    @Test func anExpectedInstantWithoutOffsetIsADiagnosticAtItsPlace() throws {
        let suite = load("""
        tests:
          - name: local deliverAt
            given: { user: { id: u1 } }
            when: { type: greet, at: "2026-03-10T23:00:00Z" }
            then:
              action: schedule
              deliverAt: "2026-03-10T23:00:00"
        """)
        let test = try #require(suite.cases.first)
        #expect(!test.isValid)
        let problem = try #require(test.problems.first)
        #expect(problem.code == .testInvalidInstant)
        #expect(problem.code.id == "H0607")
        #expect(problem.span?.start.line == 7 && problem.span?.start.column == 18)
        #expect(problem.message.contains("no UTC offset"))
        let lines = TestReport.text(report(suite)).split(separator: "\n").map(String.init)
        #expect(lines == [
            "t.yaml:7:18: FAIL local deliverAt: error[H0607]: `deliverAt` instant `2026-03-10T23:00:00` has no UTC offset",
            "0 passed, 1 failed",
        ])
    }

    @Test(arguments: [
        ("then: { action: schedule, deliverAt: \"2026-03-10T23:00:00\" }", false),
        ("then: { localDeliverAt: \"2026-03-10 23:00\" }", false),
        ("then: { localDeliverAt: [1] }", false),
        ("then: { batch: { group: g, flushAt: \"2026-03-10T23:00\" } }", false),
        ("then: { deliverAt: \"tomorrow\" }", false),
        ("then: { deliverAt: null }", true),
        ("then: { deliverAt: \"2026-03-10T23:00:00.5-04:00\", batch: { flushAt: \"2026-03-11T03:00:00Z\" } }", true),
    ])
    func instantsInThen(_ then: String, _ valid: Bool) throws {
        let suite = load("""
        tests:
          - name: x
            given: { user: { id: u1 } }
            when: { type: greet, at: "2026-03-10T23:00:00Z" }
            \(then)
        """)
        let test = try #require(suite.cases.first)
        #expect(test.isValid == valid, "\(then): \(test.problems.map(\.description))")
        if !valid { #expect(test.problems.map(\.code) == [.testInvalidInstant]) }
    }

    @Test func requestInstantsWithoutOffsetAreDiagnosticsToo() throws {
        let suite = load("""
        tests:
          - name: local at
            given: { user: { id: u1 }, now: "2026-03-10T08:00:00" }
            when: { type: greet, at: "2026-03-10T09:00:00" }
            then: { action: schedule }
        """)
        let test = try #require(suite.cases.first)
        #expect(test.problems.map(\.code) == [.testInvalidInstant, .testInvalidInstant])
        #expect(test.problems.map { $0.span?.start.line } == [3, 4])
    }

    // MARK: - Why an action differs

    @Test func aFailedActionSaysTheReasonAndTheRule() throws {
        let bundles = report(load("""
        tests:
          - name: muted
            given: { user: { id: u1 }, state: { muted: true } }
            when: { type: greet, at: "2026-03-10T10:00:00Z" }
            then: { action: schedule, reason: on_time, channel: push }
          - name: capped
            given: { user: { id: u1 }, state: { capped: true } }
            when: { type: greet, at: "2026-03-10T10:00:00Z" }
            then: { action: schedule }
        """))
        let muted = try #require(bundles[0].results.first)
        #expect(muted.failures.map(\.field) == ["action", "reason", "channel"])
        #expect(muted.failures[0].context == "reason muted, rule muted-rule at policy.yaml:40:7")
        #expect(muted.failures[1].context == "rule muted-rule at policy.yaml:40:7", "a failed reason names the rule")
        #expect(muted.failures[2].context == nil, "other fields carry no context")
        let text = TestReport.text(bundles)
        #expect(text.contains(
            "t.yaml:5:21: FAIL muted: action: expected schedule, got suppress (reason muted, rule muted-rule at policy.yaml:40:7)\n"))
        #expect(text.contains("t.yaml:9:21: FAIL capped: action: expected schedule, got suppress (reason rate_limited, cap daily)\n"))
        #expect(TestReport.junit(bundles).contains(
            "message=\"action: expected schedule, got suppress (reason muted, rule muted-rule at policy.yaml:40:7)\""))
        #expect(TestReport.json(bundles).contains("\"context\":\"reason muted, rule muted-rule at policy.yaml:40:7\""))
    }
}
