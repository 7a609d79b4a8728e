import HeraldContract
@testable import HeraldEngine
import Testing

/// `herald explain` quotes the YAML line a citation points at; like a diagnostic snippet, a
/// long line is shown as a bounded window around the cited column (issue 15, item 2).
@Suite struct ExplanationQuoteTests {
    @Test func shortLinesAreQuotedWhole() {
        let quoted = Explanation.quote("p.yaml:3:5") { _, _ in "  - id: not-now" }
        #expect(quoted == "3 |   - id: not-now")
    }

    @Test func longLinesAreWindowedAroundTheCitedColumn() throws {
        let line = String(repeating: "a", count: 100_000) + "KEY" + String(repeating: "b", count: 100_000)
        let quoted = try #require(Explanation.quote("p.yaml:7:100001") { path, n in
            path == "p.yaml" && n == 7 ? line : nil
        })
        #expect(quoted.count <= Explanation.quoteWidth + "7 | ".count)
        #expect(quoted.hasPrefix("7 | …"))
        #expect(quoted.hasSuffix("…"))
        #expect(quoted.contains("KEY"))
    }

    @Test func aCitedColumnNearEitherEndKeepsThatEnd() {
        let line = "START" + String(repeating: "x", count: 1_000) + "END"
        let head = Explanation.window(line, around: 1)
        #expect(head.hasPrefix("START") && head.hasSuffix("…") && head.count == Explanation.quoteWidth - 1)
        let tail = Explanation.window(line, around: line.count)
        #expect(tail.hasPrefix("…") && tail.hasSuffix("END") && tail.count == Explanation.quoteWidth - 1)
    }
}
