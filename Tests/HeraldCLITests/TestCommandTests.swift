import Foundation
import Testing

/// `herald test` end to end on a copy of the Handz bundle with one test file holding a passing
/// test, an invalid one (H0602), one with an instant without offset (H0607) and a failing
/// `action`.
@Suite struct TestCommandTests {
    static let tests = """
    tests:
      - name: due today passes
        given:
          user: { id: u1, account: true, tier: free }
          prefs: { timezone: America/New_York }
          permission: granted
          state: { maintenance: { dueToday: 2, overdue: 0 } }
        when: { type: N-MAINT-DUE-TODAY, at: "2026-03-10T06:00:00-04:00", params: { count: 2 } }
        then: { action: schedule, reason: reminder_time, localTime: "19:00" }

      - name: misspelt prefs
        given:
          user: { id: u1, account: true, tier: free }
          prefz: { timezone: America/New_York }
        when: { type: N-MAINT-DUE-TODAY, at: "2026-03-10T06:00:00-04:00", params: { count: 2 } }
        then: { action: schedule }

      - name: deliverAt without offset
        given:
          user: { id: u1, account: true, tier: free }
          prefs: { timezone: America/New_York }
          permission: granted
          state: { maintenance: { dueToday: 2, overdue: 0 } }
        when: { type: N-MAINT-DUE-TODAY, at: "2026-03-10T06:00:00-04:00", params: { count: 2 } }
        then:
          deliverAt: "2026-03-10T23:00:00"

      - name: nothing due is expected to schedule
        given:
          user: { id: u1, account: true, tier: free }
          prefs: { timezone: America/New_York }
          permission: granted
          state: { maintenance: { dueToday: 0, overdue: 0 } }
        when: { type: N-MAINT-DUE-TODAY, at: "2026-03-10T06:00:00-04:00", params: { count: 0 } }
        then: { action: schedule }
    """

    /// A directory holding `catalog/handz`, `policies/handz/policy.yaml` and the test file above.
    static func bundle() throws -> URL {
        let root = try TestSupport.temporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("catalog"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("policies/handz/tests"), withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestSupport.path("catalog/handz"), toPath: root.appendingPathComponent("catalog/handz").path)
        try fm.copyItem(atPath: TestSupport.path("policies/handz/policy.yaml"),
                        toPath: root.appendingPathComponent("policies/handz/policy.yaml").path)
        try tests.write(to: root.appendingPathComponent("policies/handz/tests/t.yaml"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func textReportsEveryProblemInPlaceAndCountsIt() throws {
        let root = try Self.bundle()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.runHerald(["test", "policies/handz"], in: root.path)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "stdout:\n\(run.stdout)")
        #expect(lines[0] == "policies/handz/tests/t.yaml:14:7: FAIL misspelt prefs: error[H0602]: unknown request field `prefz` in `given` (did you mean `prefs`?)")
        #expect(lines[1] == "policies/handz/tests/t.yaml:26:18: FAIL deliverAt without offset: error[H0607]: `deliverAt` instant `2026-03-10T23:00:00` has no UTC offset")
        #expect(lines[2].hasPrefix("policies/handz/tests/t.yaml:35:21: FAIL nothing due is expected to schedule: action: expected schedule, got suppress (reason no_due_items, rule no-due-items at catalog/handz/types.yaml:"))
        #expect(lines[2].hasSuffix(")"))
        #expect(lines[3] == "1 passed, 3 failed")
        // The full diagnostics, with the source line, go to standard error.
        #expect(run.stderr.contains("policies/handz/tests/t.yaml:14:7: error[H0602]: unknown request field `prefz` in `given`"))
        #expect(run.stderr.contains("help: did you mean `prefs`?"))
        #expect(run.stderr.contains("policies/handz/tests/t.yaml:26:18: error[H0607]"))
    }

    @Test func junitAndJSONCountInvalidTestsAsFailed() throws {
        let root = try Self.bundle()
        defer { try? FileManager.default.removeItem(at: root) }
        let junit = try TestSupport.runHerald(["test", "policies/handz", "--format", "junit"], in: root.path)
        #expect(junit.status == 1)
        #expect(junit.stdout.contains("<testsuites tests=\"4\" failures=\"3\">"))
        #expect(junit.stdout.contains("type=\"H0602\""))
        #expect(junit.stdout.contains("type=\"H0607\""))
        let json = try TestSupport.runHerald(["test", "policies/handz", "--format", "json"], in: root.path)
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"passed\":1,\"failed\":3"))
        #expect(json.stdout.contains("\"problems\":[{\"code\":\"H0607\""))
        #expect(json.stdout.contains("\"context\":\"reason no_due_items, rule no-due-items at catalog/handz/types.yaml:"))
    }
}
