import Foundation
import Testing

/// `herald explain policies/handz --request docs/examples/<name>.json`, run as a user runs it
/// (the built binary, from the repository root): every `path:line:col` it prints holds the key
/// its rule is named after, at that column, and the quoted YAML line is that line (issue 15:
/// the quiet-hours example cited `timezone: UTC`, two lines above `quietHours`).
@Suite struct ExplainCitationTests {
    /// Each example, the rule that decides it and the key that rule is cited at.
    static let examples: [(name: String, rule: String, key: String)] = [
        ("due-today", "N-MAINT-DUE-TODAY.timing", "timing"),
        ("quiet-hours", "quietHours", "quietHours"),
        ("inbox-burst", "global-burst", "global-burst"),
        ("denied-fallback", "N-INBOX-NEW-IMPORT.timing", "timing"),
    ]

    /// The name at a column of a line (letters, digits, `_`, `-`, `.`), the key or id there.
    static func name(in line: String, atColumn column: Int) -> String {
        let scalars = Array(line.unicodeScalars)
        guard column >= 1, column <= scalars.count else { return "" }
        let name = scalars[(column - 1)...].prefix { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
        return String(String.UnicodeScalarView(name))
    }

    @Test(arguments: examples.map(\.name)) func citesTheKeyThatDecided(_ name: String) throws {
        let example = try #require(Self.examples.first { $0.name == name })
        let result = try CommandLineTests.run(["explain", "policies/handz", "--request", "docs/examples/\(name).json"],
                                              in: TestSupport.repositoryRoot.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let decided = try #require(lines.firstIndex { $0.hasPrefix("decided by ") }, "no `decided by` line:\n\(result.stdout)")
        #expect(lines[decided].hasPrefix("decided by \(example.rule) at "), "\(lines[decided])")

        // Every citation printed: `<rule>  <path>:<line>:<col>` on a step, `decided by <rule> at
        // <path>:<line>:<col>`, each followed (after the step's detail) by `<line> | <text>`.
        let citation = /(\S+)(?:  | at )([^\s:]+\.yaml):(\d+):(\d+)$/
        var checked = 0
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: citation) else { continue }
            let rule = String(match.1), path = String(match.2)
            let lineNumber = try #require(Int(match.3)), column = try #require(Int(match.4))
            let file = try String(contentsOfFile: TestSupport.path(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            try #require(lineNumber <= file.count, "\(line): no such line")
            let text = file[lineNumber - 1]
            let key = Self.name(in: text, atColumn: column)
            // The rule's last part: `<type>.timing` gives `timing`; `quietHours`, `global-burst` themselves.
            let expected = rule.split(separator: ".").last.map(String.init) ?? rule
            #expect(key == expected, "\(line) points at `\(key)`: \(text)")
            let quoted = lines[(index + 1)...].prefix(2).first { $0.contains(" | ") }
            #expect(quoted?.trimmingCharacters(in: .whitespaces) == "\(lineNumber) | \(text)", "\(line) quotes \(quoted ?? "nothing")")
            if index == decided { #expect(key == example.key) }
            checked += 1
        }
        #expect(checked >= 3, "too few citations in:\n\(result.stdout)")
    }
}
