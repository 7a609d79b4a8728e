import Foundation
import HeraldContract
import HeraldEngine
import Testing

/// docs/examples/<name>.json decided by policies/handz must give docs/examples/<name>.decision.json
/// byte for byte (pretty JSON plus a newline, as `herald decide` prints it). Set
/// HERALD_UPDATE_EXAMPLES=1 to rewrite the expected files after a deliberate change.
@Suite struct DecideExampleTests {
    static let names = ["due-today", "quiet-hours", "inbox-burst", "denied-fallback"]

    @Test(arguments: names) func example(_ name: String) throws {
        let engine = DecideSupport.engine("policies/handz")
        let requestPath = DecideSupport.path("docs/examples/\(name).json")
        let expectedPath = DecideSupport.path("docs/examples/\(name).decision.json")
        let text = try String(contentsOfFile: requestPath, encoding: .utf8)
        let request = try DecisionRequest.parse(text)
        let decision = try engine.decide(request, now: request.now).get()
        let actual = decision.json().serialized(pretty: true) + "\n"
        if ProcessInfo.processInfo.environment["HERALD_UPDATE_EXAMPLES"] == "1" {
            try actual.write(toFile: expectedPath, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(actual == expected)
    }

    @Test func examplesReachTheirReasons() throws {
        let engine = DecideSupport.engine("policies/handz")
        var reasons: [String: String] = [:]
        for name in Self.names {
            let text = try String(contentsOfFile: DecideSupport.path("docs/examples/\(name).json"), encoding: .utf8)
            let request = try DecisionRequest.parse(text)
            let decision = try engine.decide(request, now: request.now).get()
            reasons[name] = decision.reason + (decision.fallback.map { "+" + $0 } ?? "")
        }
        #expect(reasons == ["due-today": "reminder_time", "quiet-hours": "quiet_hours",
                            "inbox-burst": "burst_spacing", "denied-fallback": "on_time+in_app"])
    }
}
