import Testing
import HeraldSyntax
@testable import HeraldPolicy

private typealias S = CompilerTestSupport

/// `timing.at: local(state(path))` / `local(state(path) ?? "HH:MM")`: a time of day from state.
@Suite("Timing: a time of day from state")
struct CompilerLocalStateTests {
    /// The minimal bundle with a required and an optional `time` state field.
    private func source(_ at: String) -> String {
        S.minimalBundle
            .replacingOccurrences(of: "  streak: int\n", with: "  streak: int\n  usual: time?\n  fixed: time\n")
            + "    timing: { at: \(at) }\n"
    }

    @Test(arguments: [
        ("'local(state(usual) ?? \"18:00\")'", TimingAnchor.localState(["usual"], fallback: 18 * 3600)),
        ("\"local(state(usual) ?? '07:30')\"", .localState(["usual"], fallback: 7 * 3600 + 1800)),
        ("\"local(state(usual) ?? 07:30)\"", .localState(["usual"], fallback: 7 * 3600 + 1800)),
        ("\"local(state(fixed))\"", .localState(["fixed"], fallback: nil)),
        ("\"local( state( fixed ) )\"", .localState(["fixed"], fallback: nil)),
    ])
    func compiles(_ at: String, _ expected: TimingAnchor) throws {
        let result = S.validate(source(at))
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description))")
        #expect(result.bundle?.types["daily-reminder"]?.timing.at == expected)
    }

    @Test(arguments: [
        ("\"local(state(usual))\"", "H0270"),                    // optional, no fallback
        ("'local(state(fixed) ?? \"18:00\")'", "H0270"),         // never absent: a needless fallback
        ("'local(state(lastOpenedAt) ?? \"18:00\")'", "H0269"),  // an instant, not a time
        ("'local(state(streak))'", "H0269"),
        ("'local(state(usul) ?? \"18:00\")'", "H0269"),
        ("'local(state(usual) ?? \"25:00\")'", "H0207"),
        ("'local(state(usual) 18:00)'", "H0205"),
    ])
    func misuse(_ at: String, _ code: String) {
        #expect(S.codes(S.validate(source(at))) == [code])
    }

    @Test func sameDayIsAllowed() {
        let result = S.validate(source("\"local(state(fixed))\"").replacingOccurrences(of: "    timing: { at: \"local(state(fixed))\" }\n", with: "    timing: { at: \"local(state(fixed))\", sameDay: true }\n"))
        #expect(!result.diagnostics.hasErrors)
    }
}
