import Foundation
import Testing
import HeraldSyntax
import HeraldContract
import HeraldEngine
import HeraldPolicy
@testable import HeraldTesting

/// `then: { batches: [ { title, body, threadId, members, … } ] }`: what a flushed batch or
/// digest delivers, on a trigger step (the batches its test's trigger steps formed so far) and
/// on a plan step (docs/testing.md § Flushed batches), over the Handz bundle.
@Suite struct FlushedBatchStepTests {
    static let engine: Engine = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Engine(bundle: Validator.validate(root.appendingPathComponent("policies/handz").path).bundle!)
    }()

    /// AT-CH27-06: a checkpoint at 18:52 and due-today at 18:58 both land at 19:00 and share
    /// the 15-minute `summary` batch.
    static func run(when: String, then: String) -> (PolicyTestResult?, Diagnostics) {
        var diagnostics = Diagnostics()
        let cases = PolicyTestLoader.parse(SourceFile(path: "t.yaml", text: """
        tests:
          - name: summary
            given:
              user: { id: u1, account: true, tier: pro }
              prefs: { timezone: America/New_York }
              permission: granted
              state: { maintenance: { dueToday: 3, overdue: 0 }, mastery: { plans: { plan-7: active }, reminders: {} } }
            when: \(when)
            then: \(then)
        """), diagnostics: &diagnostics)
        guard let test = cases.first, test.isValid else { return (nil, diagnostics) }
        return (PolicyTestRunner(engine: engine).run(test), diagnostics)
    }

    static let triggers = "[ { type: N-MASTERY-CHECKPOINT, at: \"2026-03-10T18:52:00-04:00\", params: { planId: plan-7, planName: Closed guard } }, "
        + "{ type: N-MAINT-DUE-TODAY, at: \"2026-03-10T18:58:00-04:00\", params: { count: 3 } } ]"

    @Test func aTriggerStepChecksTheFlushedBatchWithTheMemberThatFormedIt() throws {
        let (result, diagnostics) = Self.run(when: Self.triggers, then: """
            [ { batches: [] }, { batches: [ { key: "summary:u1:2026-03-10T23:00:00Z", members: 2, title: Handz, body: "2 training updates waiting. See what's due today.", threadId: summary, localTime: "19:15" } ] } ]
            """)
        #expect(diagnostics.items.isEmpty)
        let passed = try #require(result)
        #expect(passed.passed, "\(passed.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
    }

    @Test func aWrongCountOrCopyFails() throws {
        let result = try #require(Self.run(when: Self.triggers, then: """
            [ {}, { batches: [ { members: 1, body: "1 training update waiting. See what's due today." } ] } ]
            """).0)
        #expect(result.failures.map(\.expected) == ["[1].members 1"])
        let unnamed = try #require(Self.run(when: Self.triggers, then: "[ {}, { batches: [ { key: other } ] } ]").0)
        #expect(unnamed.failures.first?.expected == "[1] an entry with key other")
    }

    @Test func aPlanStepCountsEachBatchsMembers() throws {
        let (result, diagnostics) = Self.run(when: "{ now: \"2026-03-10T12:00:00-04:00\", plan: \(Self.triggers) }",
                                             then: "{ batches: [ { members: 2, body: \"2 training updates waiting. See what's due today.\" } ] }")
        #expect(diagnostics.items.isEmpty)
        let passed = try #require(result)
        #expect(passed.passed, "\(passed.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
    }
}
