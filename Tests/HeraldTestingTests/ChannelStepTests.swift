import Foundation
import Testing
import HeraldSyntax
import HeraldContract
import HeraldEngine
import HeraldPolicy
@testable import HeraldTesting

/// `then: { channels: { <channel>: { … } } }` on a `delivery: all` type
/// (`Tests/Fixtures/engine/channels`; docs/testing.md § Several channels).
@Suite struct ChannelStepTests {
    static let engine: Engine = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let bundle = Validator.validate(root.appendingPathComponent("Fixtures/engine/channels").path).bundle!
        return Engine(bundle: bundle)
    }()

    static func run(_ then: String, permission: String = "denied") -> (PolicyTestResult?, Diagnostics) {
        var diagnostics = Diagnostics()
        let cases = PolicyTestLoader.parse(SourceFile(path: "t.yaml", text: """
        tests:
          - name: payment failed on every channel
            given: { user: { id: u1 }, permission: \(permission) }
            when: { type: payment-failed, at: "2026-03-10T12:00:00Z", params: { id: p1 } }
            then: \(then)
        """), diagnostics: &diagnostics)
        guard let test = cases.first, test.isValid else {
            for problem in cases.first?.problems ?? [] where !diagnostics.items.contains(problem) { diagnostics.append(problem) }
            return (nil, diagnostics)
        }
        return (PolicyTestRunner(engine: engine).run(test), diagnostics)
    }

    @Test func channelBlocksCheckTheirOwnDecision() throws {
        let (result, diagnostics) = Self.run(
            "{ channels: { push: { action: suppress, reason: system_denied }, in_app: { action: schedule, key: \"payment-failed:p1:2026-03-10:in_app\" } } }")
        #expect(diagnostics.isEmpty)
        let passed = try #require(result)
        #expect(passed.passed, "\(passed.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
        #expect(passed.decisions.count == 3)
    }

    @Test func unscopedFieldsCheckEveryChannel() throws {
        let result = try #require(Self.run("{ action: schedule }").0)
        // push is system_denied: one failure, the two others pass.
        #expect(result.failures.map(\.field) == ["action"])
    }

    @Test func aWrongChannelValueFailsUnderItsChannel() throws {
        let result = try #require(Self.run("{ channels: { email: { reason: on_time }, in_app: { reason: channel_off } } }").0)
        #expect(result.failures.map(\.field) == ["channels.in_app.reason"])
    }

    @Test func decisionsNamingTheirChannelMatchInAnyOrder() throws {
        let result = try #require(Self.run("""
            { decisions: [ { channel: in_app, action: schedule }, { channel: push, action: suppress }, { channel: email, action: schedule } ] }
            """).0)
        #expect(result.passed, "\(result.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
        // The same blocks without `channel` are checked by position: push (suppressed) comes first.
        let positional = try #require(Self.run("{ decisions: [ { action: schedule }, { action: suppress }, { action: schedule } ] }").0)
        #expect(!positional.passed)
        // Matched by channel, a wrong value on the named channel still fails.
        let wrong = try #require(Self.run("""
            { decisions: [ { channel: in_app, action: schedule }, { channel: push, action: schedule }, { channel: email, action: schedule } ] }
            """).0)
        #expect(wrong.failures.map(\.field) == ["decisions", "decisions", "decisions"])
        #expect(wrong.failures.first?.expected == "[2].action schedule")
        // A block naming a channel the step has no decision on fails.
        let missing = try #require(Self.run("{ decisions: [ { channel: sms }, { channel: push }, { channel: email } ] }").0)
        #expect(missing.failures.first?.expected == "[1] an entry with channel sms")
    }

    @Test func decisionsNamingKeysMatchByKey() throws {
        let result = try #require(Self.run("""
            { decisions: [ { key: "payment-failed:p1:2026-03-10:in_app", channel: in_app },
                           { key: "payment-failed:p1:2026-03-10:email", channel: email },
                           { key: "payment-failed:p1:2026-03-10:push", channel: push } ] }
            """, permission: "granted").0)
        #expect(result.passed, "\(result.failures.map { "\($0.field): \($0.expected) vs \($0.actual)" })")
        // A suppressed decision has no key: with push denied, no entry has the push key.
        let denied = try #require(Self.run("""
            { decisions: [ { key: "payment-failed:p1:2026-03-10:in_app" }, { key: "payment-failed:p1:2026-03-10:email" },
                           { key: "payment-failed:p1:2026-03-10:push" } ] }
            """).0)
        #expect(denied.failures.first?.expected == "[3] an entry with key payment-failed:p1:2026-03-10:push")
    }

    @Test func someBlocksNamingAChannelIsAnError() {
        let (result, diagnostics) = Self.run("{ decisions: [ { channel: in_app }, { action: suppress }, { action: schedule } ] }")
        #expect(result == nil)
        #expect(diagnostics.items.map(\.code.id) == ["H0618"])
    }

    @Test func aChannelWithoutADecisionFails() throws {
        let result = try #require(Self.run("{ channels: { sms: { action: schedule } } }").0)
        #expect(result.failures.map(\.field) == ["channels.sms"])
    }

    @Test func unknownFieldInAChannelBlockIsReported() {
        let (result, diagnostics) = Self.run("{ channels: { push: { reasn: x } } }")
        #expect(result == nil)
        #expect(Set(diagnostics.items.map(\.code.id)) == ["H0602"])
    }
}
