import Foundation
import Testing
import HeraldSyntax
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

    static func run(_ then: String) -> (PolicyTestResult?, Diagnostics) {
        var diagnostics = Diagnostics()
        let cases = PolicyTestLoader.parse(SourceFile(path: "t.yaml", text: """
        tests:
          - name: payment failed on every channel
            given: { user: { id: u1 }, permission: denied }
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
