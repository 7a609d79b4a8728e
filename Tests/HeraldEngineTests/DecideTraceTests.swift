import Testing
import HeraldContract
import HeraldEngine

/// Every trace note the engine records as a code (channel, key, timing, counts, batching,
/// fallback) reads as its text when the trace is read: `Decision.trace` builds the steps
/// from plain records, and these pin what each scenario's steps say.
@Suite struct DecideTraceTests {
    typealias S = DecideSupport

    /// `stage outcome [rule @ source] detail`, one line per step.
    static func lines(_ d: Decision) -> [String] {
        d.trace.map { step in
            var line = "\(step.stage) \(step.outcome.rawValue)"
            if let rule = step.rule { line += " [\(rule) @ \(step.source ?? "-")]" }
            if let detail = step.detail { line += " \(detail)" }
            return line
        }
    }

    static let scenarios: [(String, DecisionRequest)] = [
        ("reminder", S.request("daily", params: ["count": 2])),
        ("fallback", S.request("daily", permission: "denied", params: ["count": 2])),
        ("quiet deferral", S.request("cooled", at: "2026-03-10T23:00:00Z")),
        ("training day", S.request("weekly", prefs: ["trainingDays": ["fri"]])),
        ("burst spacing", S.request("cooled", history: [S.entry("morning", at: S.t0)])),
        ("batched with member", S.request("tip2", history: [S.entry("tip", at: "2026-03-10T11:55:00Z", status: "scheduled")])),
        ("batching alone", S.request("tip2")),
        ("duplicate", S.request("daily", params: ["count": 2],
                                history: [S.entry("daily", key: "daily:u1:2026-03-10", at: "2026-03-10T09:00:00Z")])),
        ("local time", S.request("morning")),
        ("on time", S.request("otp")),
    ]

    /// What each scenario's trace reads, as the engine wrote it before traces were recorded as codes.
    static let expected: [String: [String]] = [
        "reminder": [
            "request pass",
            "eligibility pass [daily.eligible @ Tests/Fixtures/engine/basic/bundle.yaml:33:5]",
            "preferences pass channel `local`",
            "permission pass",
            "suppression pass 1 rule(s) false",
            "dedupe pass key `daily:u1:2026-03-10`",
            "timing pass [daily.timing @ Tests/Fixtures/engine/basic/bundle.yaml:34:5] aligned to reminder time 19:00; 2026-03-10 19:00",
            "caps pass 3 cap(s) have room",
            "batching skip",
            "render pass on `local`",
        ],
        "fallback": [
            "request pass",
            "eligibility pass [daily.eligible @ Tests/Fixtures/engine/basic/bundle.yaml:33:5]",
            "preferences pass channel `local`",
            "permission pass [daily.fallback @ Tests/Fixtures/engine/basic/bundle.yaml:31:5] permission denied for `local`; falling back to `in_app`",
            "suppression pass 1 rule(s) false",
            "dedupe pass key `daily:u1:2026-03-10`",
            "timing pass [daily.timing @ Tests/Fixtures/engine/basic/bundle.yaml:34:5] aligned to reminder time 19:00; 2026-03-10 19:00",
            "caps pass 3 cap(s) have room",
            "batching skip",
            "render pass on `in_app`",
        ],
        "quiet deferral": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `push`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `cooled:u1:2026-03-10`",
            "timing pass [quietHours @ Tests/Fixtures/engine/basic/bundle.yaml:121:1] immediate; deferred from 2026-03-10 23:00 to 2026-03-11 07:00 (quiet hours 22:00–07:00); 2026-03-11 07:00",
            "caps pass 3 cap(s) have room",
            "batching skip",
            "render pass on `push`",
        ],
        "training day": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `local`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `weekly:u1:2026-03-13`",
            "timing pass [weekly.timing @ Tests/Fixtures/engine/basic/bundle.yaml:93:5] aligned to reminder time 19:00; moved to the next training day; 2026-03-13 19:00",
            "caps pass 2 cap(s) have room",
            "batching skip",
            "render pass on `local`",
        ],
        "burst spacing": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `push`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `cooled:u1:2026-03-10`",
            "timing pass [cooled.timing @ Tests/Fixtures/engine/basic/bundle.yaml:99:3] immediate; 2026-03-10 12:00",
            "caps pass [burst @ Tests/Fixtures/engine/basic/bundle.yaml:124:11] `burst` deferred 2026-03-10 12:00 → 2026-03-10 12:01",
            "batching skip",
            "render pass on `push`",
        ],
        "batched with member": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `local`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `tip2:u1:2026-03-10`",
            "timing pass [tip2.timing @ Tests/Fixtures/engine/basic/bundle.yaml:111:3] immediate; 2026-03-10 12:00",
            "caps pass 3 cap(s) have room",
            "batching verdict [batching.tips @ Tests/Fixtures/engine/basic/bundle.yaml:131:3] joins `tips:u1:2026-03-10T11:55:00Z`, flushes at 2026-03-10 12:10",
            "render pass member notification for flush",
        ],
        "batching alone": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `local`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `tip2:u1:2026-03-10`",
            "timing pass [tip2.timing @ Tests/Fixtures/engine/basic/bundle.yaml:111:3] immediate; 2026-03-10 12:00",
            "caps pass 3 cap(s) have room",
            "batching pass [batching.tips @ Tests/Fixtures/engine/basic/bundle.yaml:131:3] no other member of `tips` within 15m",
            "render pass on `local`",
        ],
        "duplicate": [
            "request pass",
            "eligibility pass [daily.eligible @ Tests/Fixtures/engine/basic/bundle.yaml:33:5]",
            "preferences pass channel `local`",
            "permission pass",
            "suppression pass 1 rule(s) false",
            "dedupe verdict [daily.key @ Tests/Fixtures/engine/basic/bundle.yaml:28:3] `daily:u1:2026-03-10` is already in the history",
            "timing skip",
            "caps skip",
            "batching skip",
            "render skip",
        ],
        "local time": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `push`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `morning:u1:2026-03-11`",
            "timing pass [morning.timing @ Tests/Fixtures/engine/basic/bundle.yaml:51:5] aligned to local time 09:00; 2026-03-11 09:00",
            "caps pass 2 cap(s) have room",
            "batching skip",
            "render pass on `push`",
        ],
        "on time": [
            "request pass",
            "eligibility pass",
            "preferences pass channel `push`",
            "permission pass",
            "suppression pass",
            "dedupe pass key `otp:u1:2026-03-10`",
            "timing pass [otp.timing @ Tests/Fixtures/engine/basic/bundle.yaml:77:5] immediate; 2026-03-10 12:00",
            "caps pass 1 cap(s) have room",
            "batching skip",
            "render pass on `push`",
        ],
    ]

    @Test(arguments: scenarios.map(\.0))
    func traceReads(_ name: String) throws {
        let request = try #require(Self.scenarios.first { $0.0 == name }?.1)
        #expect(Self.lines(S.decide(request)) == Self.expected[name])
    }

    /// The trace survives the decision being copied and changed (copy on write keeps the
    /// records and the table they point into), and a trace set by hand replaces the record.
    @Test func copiesAndReplacement() {
        let original = S.decide(S.request("daily", permission: "denied", params: ["count": 2]))
        var copy = original
        copy.reason = "changed"
        #expect(Self.lines(copy) == Self.expected["fallback"])
        #expect(Self.lines(original) == Self.expected["fallback"])
        copy.trace = [TraceStep(stage: .request, outcome: .pass, detail: "by hand")]
        #expect(Self.lines(copy) == ["request pass by hand"])
        #expect(Self.lines(original) == Self.expected["fallback"])
        #expect(copy != original)
    }

    /// Equal decisions compare equal whether their traces were recorded or written by hand.
    @Test func recordedEqualsWritten() {
        let recorded = S.decide(S.request("otp"))
        var written = recorded
        written.trace = recorded.trace
        #expect(written == recorded)
        #expect(written.json() == recorded.json())
    }
}
