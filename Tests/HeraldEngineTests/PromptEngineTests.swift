import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import Testing

/// `Engine.prompt`: the built-in waits, each wait rule, missing data, the names rules read,
/// request errors, the JSON shape and the docs example (Tests/Fixtures/engine/prompt).
@Suite struct PromptEngineTests {
    static let engine = DecideSupport.engine("prompt")
    static let t0 = "2026-03-10T12:00:00Z"  // 13:00 in Berlin
    static let ruleIDs = ["guest", "mid-flow", "no-value", "declined", "night", "reminded"]

    static func request(now: String = t0, user: JSON = ["id": "u1", "account": true], permission: String? = "unknown",
                        state: JSON = ["savedFlows": 1, "midFlow": false], prefs: JSON? = nil,
                        history: [JSON] = []) throws -> PromptRequest {
        var members: [JSON.Member] = [.init("now", .string(now)), .init("user", user), .init("state", state),
                                      .init("history", .array(history))]
        if let permission { members.append(.init("permission", .string(permission))) }
        if let prefs { members.append(.init("prefs", prefs)) }
        return try PromptRequest(json: .object(members))
    }

    static func prompt(_ request: PromptRequest) throws -> PromptDecision {
        try engine.prompt(request, now: request.now).get()
    }

    @Test func asksWhenNoRuleWaits() throws {
        let d = try Self.prompt(Self.request())
        #expect(d.prompt == .ask)
        #expect(d.reason == "eligible")
        #expect(d.rule == nil)
        #expect(d.trace.map(\.stage.rawValue) == ["permission"] + Array(repeating: "prompt", count: 6))
        #expect(d.trace.dropFirst().map(\.outcome) == Array(repeating: .pass, count: 6))
        #expect(d.trace.dropFirst().map(\.rule) == Self.ruleIDs)
        #expect(d.trace[1].source?.hasSuffix("Tests/Fixtures/engine/prompt/bundle.yaml:32:13") == true)
        #expect(d.trace[1].detail == "`!user.account` is false")
        #expect(d.policy.name == "prompt")
    }

    @Test(arguments: [("granted", "already_granted"), ("denied", "denied_before")])
    func answeredPermissionAlwaysWaits(_ permission: String, _ reason: String) throws {
        // Even a guest mid-flow: the built-in waits come first and every rule is skipped.
        let d = try Self.prompt(Self.request(user: ["id": "u1", "account": false], permission: permission,
                                             state: ["savedFlows": 0, "midFlow": true]))
        #expect(d.prompt == .wait)
        #expect(d.reason == reason)
        #expect(d.rule == nil)
        #expect(d.trace.first == TraceStep(stage: .permission, outcome: .verdict, detail: d.trace.first?.detail))
        #expect(d.trace.dropFirst().map(\.outcome) == Array(repeating: .skip, count: 6))
    }

    @Test(arguments: ["unknown", "provisional"])
    func undecidedPermissionGoesToTheRules(_ permission: String) throws {
        #expect(try Self.prompt(Self.request(permission: permission)).prompt == .ask)
        #expect(try Self.prompt(Self.request(permission: permission, state: ["savedFlows": 0, "midFlow": false])).reason == "no_value_yet")
    }

    @Test func permissionDefaultsToUnknown() throws {
        #expect(try Self.prompt(Self.request(permission: nil)).prompt == .ask)
    }

    @Test func eachRuleWaitsWithItsReasonAndSkipsTheRest() throws {
        let cases: [(PromptRequest, String, String)] = [
            (try Self.request(user: ["id": "u1", "account": false]), "guest", "guest"),
            (try Self.request(state: ["savedFlows": 1, "midFlow": true]), "mid-flow", "mid_flow"),
            (try Self.request(state: ["savedFlows": 0, "midFlow": false]), "no-value", "no_value_yet"),
            (try Self.request(state: ["savedFlows": 1, "midFlow": false, "declinedAt": "2026-03-10T02:00:00Z"]), "declined", "declined_recently"),
            (try Self.request(now: "2026-03-10T21:30:00Z"), "night", "night"),
            (try Self.request(history: [DecideSupport.entry("daily", at: "2026-03-10T07:00:00Z")]), "reminded", "reminded_today"),
        ]
        for (request, id, reason) in cases {
            let d = try Self.prompt(request)
            #expect(d.prompt == .wait, "\(id)")
            #expect(d.reason == reason)
            #expect(d.rule?.id == id)
            let index = try #require(Self.ruleIDs.firstIndex(of: id))
            #expect(d.rule?.source == d.trace[index + 1].source)
            #expect(d.trace[index + 1].outcome == .verdict)
            #expect(d.trace[1..<(index + 1)].allSatisfy { $0.outcome == .pass })
            #expect(d.trace[(index + 2)...].allSatisfy { $0.outcome == .skip })
        }
    }

    @Test func rulesReadNowAsTheLocalTimeInTheUsersZone() throws {
        // 21:30Z is 22:30 in Berlin (the default zone) but 17:30 in New York.
        #expect(try Self.prompt(Self.request(now: "2026-03-10T21:30:00Z")).reason == "night")
        let ny = try Self.prompt(Self.request(now: "2026-03-10T21:30:00Z", prefs: ["timezone": "America/New_York"]))
        #expect(ny.prompt == .ask)
    }

    @Test func anOldDeclineNoLongerWaits() throws {
        let d = try Self.prompt(Self.request(state: ["savedFlows": 1, "midFlow": false, "declinedAt": "2026-03-08T12:00:00Z"]))
        #expect(d.prompt == .ask)
    }

    @Test func anAbsentFieldWaitsAsMissingData() throws {
        let d = try Self.prompt(Self.request(state: ["midFlow": false]))
        #expect(d.prompt == .wait)
        #expect(d.reason == "missing_data")
        #expect(d.rule?.id == "no-value")
        #expect(d.trace[3].detail == "`state.savedFlows` is absent")
        // An earlier rule that waits still wins.
        #expect(try Self.prompt(Self.request(state: ["midFlow": true])).reason == "mid_flow")
    }

    @Test func badRequestsListEveryProblem() throws {
        let wrongTypes = try Self.request(state: ["savedFlows": "one", "midFlow": false, "streak": 2], prefs: ["timezone": "Mars/Base"])
        let errors = try #require(Self.failure(wrongTypes))
        #expect(errors.paths == ["prefs.timezone", "state.savedFlows", "state.streak"])
        #expect(throws: RequestErrors.self) { try PromptRequest.parse(#"{"now":"2026-03-10T12:00:00Z","user":{"id":"u"},"type":"daily"}"#) }
        do {
            _ = try PromptRequest.parse(#"{"user":{},"permission":"maybe","at":"x"}"#)
            Issue.record("expected errors")
        } catch {
            #expect(error.paths == ["at", "now", "user.id", "permission"])
        }
        #expect(throws: RequestErrors.self) { try PromptRequest.parse("{") }
    }

    static func failure(_ request: PromptRequest) -> RequestErrors? {
        if case .failure(let errors) = engine.prompt(request, now: request.now) { return errors }
        return nil
    }

    @Test func jsonHasTheContractsShapeAndIsDeterministic() throws {
        let request = try Self.request(state: ["savedFlows": 1, "midFlow": true])
        let a = try Self.prompt(request).json()
        let b = try Self.prompt(request).json()
        #expect(a.serialized() == b.serialized())
        #expect(a.members?.map(\.key) == ["prompt", "reason", "rule", "trace", "policy"])
        #expect(a["prompt"] == "wait")
        #expect(a["rule"]?["id"] == "mid-flow")
        let ask = try Self.prompt(Self.request()).json()
        #expect(ask["rule"] == nil)
        #expect(ask["reason"] == "eligible")
    }

    @Test func requestJSONRoundTrips() throws {
        let request = try Self.request(permission: "denied", state: ["savedFlows": 2, "midFlow": false],
                                       prefs: ["timezone": "Asia/Tokyo", "pausedAll": true],
                                       history: [DecideSupport.entry("daily", at: "2026-03-10T07:00:00Z")])
        #expect(try PromptRequest(json: request.json()) == request)
    }

    @Test func aPolicyWithoutPromptRulesAsksUnlessAnswered() throws {
        let engine = DecideSupport.engine("basic")
        let request = try PromptRequest(json: ["now": "2026-03-10T12:00:00Z", "user": ["id": "u1"]])
        let d = try engine.prompt(request, now: request.now).get()
        #expect(d.prompt == .ask)
        #expect(d.trace.count == 1)
        let denied = try PromptRequest(json: ["now": "2026-03-10T12:00:00Z", "user": ["id": "u1"], "permission": "denied"])
        #expect(try engine.prompt(denied, now: denied.now).get().reason == "denied_before")
    }

    /// docs/decisions.md's prompt example, decided by policies/handz (digest and line numbers
    /// aside, which move as the policy is edited).
    @Test func docsExampleMatchesTheEngine() throws {
        let text = try String(contentsOfFile: DecideSupport.path("docs/decisions.md"), encoding: .utf8)
        func block(_ tag: String) throws -> String {
            let start = try #require(text.range(of: "```json \(tag)\n"))
            let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
            return String(text[start.upperBound..<end.lowerBound])
        }
        let request = try PromptRequest.parse(try block("prompt-request"))
        let decision = try DecideSupport.engine("policies/handz").prompt(request, now: request.now).get()
        func normalized(_ s: String) -> String {
            s.replacingOccurrences(of: #""digest":"[^"]*""#, with: #""digest":"…""#, options: .regularExpression)
                .replacingOccurrences(of: #"\.yaml:[0-9]+:[0-9]+"#, with: ".yaml:L:C", options: .regularExpression)
        }
        #expect(normalized(decision.json().serialized()) == normalized(try block("prompt-decision")))
    }
}
