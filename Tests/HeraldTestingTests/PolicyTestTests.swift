import Testing
import HeraldSyntax
import HeraldContract
import HeraldEngine
@testable import HeraldTesting

/// A stand-in decision function: suppresses with `muted` when `state.muted` is true, otherwise
/// schedules at `at` with reason `on_time`, and reports how much history it saw in `key`.
private let fakeDecide: PolicyTestRunner.Decide = { request, now in
    let muted = request.state["muted"]?.boolValue == true
    let offset = request.prefs.timezone == "Asia/Kathmandu" ? 5 * 3600 + 45 * 60 : 0
    return .success(Decision(
        action: muted ? .suppress : .schedule,
        reason: muted ? "muted" : "on_time",
        deliverAt: muted ? nil : request.at,
        utcOffset: offset,
        type: request.type,
        key: "seen:\(request.history.count)",
        notification: muted ? nil : Decision.Notification(body: "Hello \(request.params["name"]?.stringValue ?? "")"),
        rule: muted ? Decision.Rule(id: "muted-rule", source: "x.yaml:1:1") : nil,
        policy: Decision.Policy(name: "fake", digest: "0")))
}

private func parse(_ text: String) -> ([PolicyTestCase], Diagnostics) {
    var diagnostics = Diagnostics()
    let cases = PolicyTestLoader.parse(SourceFile(path: "t.yaml", text: text), diagnostics: &diagnostics)
    return (cases, diagnostics)
}

@Suite("Policy tests")
struct PolicyTestTests {
    static let passing = """
    tests:
      - name: schedules on time
        given:
          user: { id: u1 }
          prefs: { timezone: Asia/Kathmandu }
        when:
          type: greet
          at: "2026-03-10T10:00:00Z"
          params: { name: Ana }
        then:
          action: schedule
          reason: on_time
          deliverAt: "2026-03-10T15:45:00+05:45"
          localTime: "15:45"
          localDate: "2026-03-10"
          body: "Hello Ana"
          fallback: null
      - name: muted users hear nothing
        given: { user: { id: u1 }, state: { muted: true } }
        when: { type: greet, at: "2026-03-10T10:00:00Z" }
        then: { action: suppress, reason: muted, rule: muted-rule }
      - name: each decision is fed back as history
        given: { user: { id: u1 } }
        when:
          - { type: greet, at: "2026-03-10T10:00:00Z" }
          - { type: greet, at: "2026-03-10T11:00:00Z" }
          - { type: greet, at: "2026-03-10T12:00:00Z" }
        then:
          - { key: "seen:0" }
          - { key: "seen:1" }
          - { key: "seen:2" }
    """

    @Test func parsesAndPasses() throws {
        let (cases, diagnostics) = parse(Self.passing)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        #expect(cases.map(\.name) == ["schedules on time", "muted users hear nothing", "each decision is fed back as history"])
        let results = cases.map(PolicyTestRunner(decide: fakeDecide).run)
        for r in results { #expect(r.passed, "\(r.name): \(r.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })") }
        #expect(results[2].decisions.count == 3)
    }

    @Test func failuresNameFieldExpectedActualAndLine() throws {
        let (cases, _) = parse("""
        tests:
          - name: wrong expectations
            given: { user: { id: u1 } }
            when: { type: greet, at: "2026-03-10T10:00:00Z" }
            then:
              action: suppress
              localTime: "09:00"
              cap: global-hard
        """)
        let result = PolicyTestRunner(decide: fakeDecide).run(try #require(cases.first))
        #expect(!result.passed)
        #expect(result.failures.map(\.field) == ["action", "localTime", "cap"])
        #expect(result.failures[0].expected == "suppress" && result.failures[0].actual == "schedule")
        #expect(result.failures[1].actual == "10:00")
        #expect(result.failures[2].actual == "(absent)")
        #expect(result.failures[0].span.start.line == 6)
        let text = TestReport.text([.init(directory: "d", results: [result], coverage: nil)])
        #expect(text.contains("t.yaml:6:15: FAIL wrong expectations: action: expected suppress, got schedule"))
        #expect(text.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func badRequestIsAFailureNotACrash() throws {
        let (cases, _) = parse("""
        tests:
          - name: no user
            given: { prefs: { timezone: UTC } }
            when: { type: greet, at: "2026-03-10T10:00:00Z" }
            then: { action: schedule }
        """)
        let result = PolicyTestRunner(decide: fakeDecide).run(try #require(cases.first))
        #expect(result.failures.first?.field == "request")
        #expect(result.failures.first?.actual.contains("user") == true)
    }

    @Test func structureErrorsAreDiagnostics() {
        #expect(parse("tests: {}").1.first?.code == .testFileStructure)
        #expect(parse("test: []").1.first?.code == .testUnknownKey)
        #expect(parse("tests:\n  - { name: x, when: {type: a, at: b}, then: {action: schedule}, expect: 1 }").1.first?.code == .testUnknownKey)
        #expect(parse("tests:\n  - { name: x, given: { prefz: {} }, when: {type: a}, then: {action: schedule} }").1.first?.suggestion == "prefs")
        #expect(parse("tests:\n  - { name: x, when: {type: a}, then: {reasn: x} }").1.first?.suggestion == "reason")
        #expect(parse("tests:\n  - { name: x, when: [{type: a}, {type: b}], then: [{action: schedule}] }").1.first?.code == .testStepMismatch)
        #expect(parse("tests:\n  - { name: x, when: {type: a} }").1.first?.code == .testFileStructure)
        #expect(parse("tests:\n  - { when: {type: a}, then: {} }").1.first?.code == .testFileStructure)
    }

    @Test func reportsInJUnitAndJSON() throws {
        let (cases, _) = parse(Self.passing)
        let results = cases.map(PolicyTestRunner(decide: fakeDecide).run)
        let bundles = [TestReport.BundleResults(directory: "policies/demo", results: results, coverage: nil)]
        let junit = TestReport.junit(bundles)
        #expect(junit.contains("<testsuites tests=\"3\" failures=\"0\">"))
        #expect(junit.contains("name=\"muted users hear nothing\""))
        let json = TestReport.json(bundles)
        #expect(json.contains("\"passed\":3,\"failed\":0"))
        #expect(TestReport.text(bundles) == "3 passed, 0 failed\n")
    }

    @Test func yamlScalarsBecomeTypedJSON() throws {
        let root = try #require(YAMLReader.read(SourceFile(path: "t", text: "a: true\nb: 3\nc: '3'\nd: null\ne: x\nf: [1, two]\n")).root)
        let json = JSON(yaml: root)
        #expect(json["a"] == .bool(true))
        #expect(json["b"] == .int(3))
        #expect(json["c"] == .string("3"))
        #expect(json["d"] == .null)
        #expect(json["e"] == .string("x"))
        #expect(json["f"] == .array([.int(1), .string("two")]))
    }
}
