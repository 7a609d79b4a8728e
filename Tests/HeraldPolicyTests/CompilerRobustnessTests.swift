import Foundation
import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Nothing may crash on any input: the compiler is fed many damaged variants of real bundles.
@Suite struct CompilerRobustnessTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    static let replacements = ["", "[", "]", "{", "}", ": ", "- ", "lots", "-1", "99999999999999999999", "(", ")", "\"",
                               "batch(", "param()", "local(\"25:00\")", "enum(", "list<", "?", "null", "~", "{x}", "'"]

    @Test func damagedBundlesNeverCrash() throws {
        let base = CompilerTestSupport.minimalBundle + """
            params: { when: instant, n2: int }
            timing: { at: param(when), offset: -1h, expires: 2h }
            caps: [ { max: 1, per: day, over: batch(summary) } ]
            suppress: [ { when: "state.streak > 1", reason: muted } ]
        batching:
          summary: { window: 15m, members: [daily-reminder], copy: { body: "{count}" }, link: { route: home } }
        digests:
          daily: { at: "09:00", copy: { body: x } }
        defaults: { quietHours: { start: "22:00", end: "07:00" }, trainingDays: [mon] }
        priorities: [reminders]
        dst: { gap: next_valid_minute }
        content: { maxLength: 90, banned: [lazy] }

        """
        #expect(!CompilerTestSupport.validate(base).diagnostics.hasErrors)
        var random = Generator(state: 42)
        let dir = CompilerTestSupport.makeBundle(["bundle.yaml": base])
        for _ in 0..<200 {
            var lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<(1 + random.below(3)) {
                let i = random.below(lines.count)
                var chars = Array(lines[i])
                switch random.below(4) {
                case 0: lines.remove(at: i)
                case 1 where !chars.isEmpty:
                    let at = random.below(chars.count)
                    chars.replaceSubrange(at..<min(chars.count, at + 1 + random.below(6)),
                                          with: Self.replacements[random.below(Self.replacements.count)])
                    lines[i] = String(chars)
                case 2: lines.insert(lines[random.below(lines.count)], at: i)
                default:
                    let at = random.below(chars.count + 1)
                    chars.insert(contentsOf: Self.replacements[random.below(Self.replacements.count)], at: at)
                    lines[i] = String(chars)
                }
            }
            let text = lines.joined(separator: "\n")
            _ = FileManager.default.createFile(atPath: dir + "/bundle.yaml", contents: Data(text.utf8))
            let result = Validator.validate(dir)
            #expect(result.bundle == nil || !result.diagnostics.hasErrors)
            for d in result.diagnostics where d.severity == .error {
                #expect(d.span != nil || d.code.id.hasPrefix("H00"), "\(d) in\n\(text)")
            }
        }
    }
}
