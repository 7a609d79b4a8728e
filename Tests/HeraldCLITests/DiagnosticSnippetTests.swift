import Foundation
import HeraldPolicy
import HeraldSyntax
import Testing

/// Snippets of long lines (issue 15, item 2): a line longer than the window is cut around the
/// caret with `…`, the caret and underline stay under the characters they mark, and no line of
/// any format's output passes 200 characters. Short lines are shown whole (the golden
/// fixtures pin them).
@Suite struct DiagnosticSnippetTests {
    static let path = "long.yaml"

    static func render(_ text: String, _ line: Int, _ column: Int, to endLine: Int? = nil, _ endColumn: Int? = nil,
                       format: DiagnosticRenderer.Format = .text) -> String {
        let file = SourceFile(path: path, text: text)
        let span = SourceSpan(start: SourceLocation(path: path, line: line, column: column),
                              end: SourceLocation(path: path, line: endLine ?? line, column: endColumn ?? column))
        return DiagnosticRenderer(format: format).render([Diagnostic(.yamlSyntax, "x", at: span)], sources: [path: file])
    }

    /// The snippet's source line (after `N | `) and caret line (after `  | `), as characters.
    static func snippet(_ output: String) throws -> (source: [Character], carets: [Character]) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sourceIndex = try #require(lines.firstIndex { $0.first?.isNumber == true && $0.contains(" | ") })
        let source = lines[sourceIndex]
        let carets = lines[sourceIndex + 1]
        let gutter = try #require(source.range(of: " | "))
        return (Array(source[gutter.upperBound...]), Array(carets.dropFirst(source.distance(from: source.startIndex, to: gutter.upperBound))))
    }

    static func allLinesFit(_ output: String) -> Bool {
        output.split(separator: "\n").allSatisfy { $0.count <= 200 && $0.unicodeScalars.count <= 200 }
    }

    @Test func aLongLineIsCutAroundTheCaret() throws {
        let text = "k: " + String(repeating: "a", count: 5_000) + "TARGET" + String(repeating: "b", count: 5_000) + "\n"
        let output = Self.render(text, 1, 5_004, to: 1, 5_010)
        #expect(Self.allLinesFit(output))
        let (source, carets) = try Self.snippet(output)
        #expect(source.first == "…" && source.last == "…")
        let target = try #require(String(source).range(of: "TARGET"))
        let at = String(source).distance(from: String(source).startIndex, to: target.lowerBound)
        #expect(carets.firstIndex(of: "^") == at)
        #expect(String(carets).trimmingPrefix(while: { $0 == " " }) == "^~~~~~")
        // Context on both sides.
        #expect(source[..<at].filter { $0 == "a" }.count >= 40)
        #expect(source[(at + 6)...].filter { $0 == "b" }.count >= 40)
    }

    @Test func nearTheStartTheLineShowsFromItsBeginning() throws {
        let text = "key: " + String(repeating: "x", count: 3_000)
        let (source, carets) = try Self.snippet(Self.render(text, 1, 6))
        #expect(String(source).hasPrefix("key: xxx"))
        #expect(source.last == "…")
        #expect(carets.firstIndex(of: "^") == 5)
        #expect(source.count <= DiagnosticRenderer.snippetWidth)
    }

    @Test func nearTheEndTheLineShowsToItsEnd() throws {
        let text = String(repeating: "y", count: 3_000) + "END\nnext: 1\n"
        let (source, carets) = try Self.snippet(Self.render(text, 1, 3_001))
        #expect(source.first == "…")
        #expect(String(source).hasSuffix("yEND"))
        #expect(carets.firstIndex(of: "^") == source.count - 3)
        #expect(source.count == DiagnosticRenderer.snippetWidth - 1)
    }

    /// A span over a whole long value (H0505 on a long template) is underlined to the window's
    /// end, not the value's.
    @Test func theUnderlineStopsAtTheWindow() throws {
        let text = "body: \"" + String(repeating: "word ", count: 2_000) + "\"\n"
        let output = Self.render(text, 1, 7, to: 1, 10_009)
        #expect(Self.allLinesFit(output))
        let (source, carets) = try Self.snippet(output)
        #expect(carets.firstIndex(of: "^") == 6)
        #expect(carets.count == source.count - 1, "the underline runs to the last character before `…`")
        #expect(carets[7...].allSatisfy { $0 == "~" })
        // A span running on to later lines is capped the same way.
        let multi = Self.render(text + "x: 1\n", 1, 7, to: 2, 2)
        #expect(Self.allLinesFit(multi))
        #expect(try Self.snippet(multi).carets.count == source.count - 1)
    }

    /// Wide characters take two cells and a tab runs to its stop: the caret still lands under
    /// `X`, counted in terminal cells.
    @Test func wideCharactersAndTabsInALongLine() throws {
        let text = "k: " + String(repeating: "漢", count: 3_000) + "\tX" + String(repeating: "字", count: 3_000)
        // `k: ` is columns 1-3, the 3,000 `漢` 4-3003, the tab 3004: `X` is column 3005.
        let output = Self.render(text, 1, 3_005)
        #expect(Self.allLinesFit(output))
        let (source, carets) = try Self.snippet(output)
        let x = try #require(source.firstIndex(of: "X"))
        let cells = source[..<x].reduce(0) { $0 + ($1 == "漢" || $1 == "字" ? 2 : 1) }
        #expect(carets.firstIndex(of: "^") == cells)
        #expect(!source.contains("\t"))
    }

    /// A line a little over the window is cut; one at the window is shown whole.
    @Test func theWindowIsTheLimit() throws {
        let width = DiagnosticRenderer.snippetWidth
        let whole = try Self.snippet(Self.render(String(repeating: "z", count: width), 1, 1)).source
        #expect(whole == Array(repeating: "z", count: width))
        let cut = try Self.snippet(Self.render(String(repeating: "z", count: width + 1), 1, 1)).source
        #expect(cut.count <= width && cut.last == "…")
    }

    /// A 4 MiB line (the largest file the reader accepts) costs a window, not the line.
    @Test func aMultiMegabyteLine() throws {
        let text = "v: [" + String(repeating: "1234567, ", count: 466_000) + "1]\n"
        for column in [1, 2_000_000, text.utf8.count - 2] {
            let output = Self.render(text, 1, column, to: 1, column + 100_000)
            #expect(output.utf8.count < 2_048)
            #expect(Self.allLinesFit(output))
        }
    }

    /// H0505 on a 6,000-character template: the warning is underlined across the window only.
    @Test func copyTooLongOnALongTemplate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = String(repeating: "Keep practising. ", count: 350)
        let bundle = """
            app: { name: Demo, scheme: demo }
            channels:
              push: { kind: push }
            categories:
              reminders: { title: Reminders }
            routes:
              home: { url: "demo://home" }
            types:
              daily-reminder:
                category: reminders
                channels: [push]
                copy: { body: "\(body)" }
                link: { route: home }
            content:
              maxLength: 90

            """
        try bundle.write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
        let result = Validator.validate(directory.path)
        #expect(result.diagnostics.map(\.code.id) == ["H0505"])
        let output = DiagnosticRenderer().render(result.diagnostics.items, sources: result.sources)
        #expect(Self.allLinesFit(output))
        let (source, carets) = try Self.snippet(output)
        #expect(String(source).hasPrefix("    copy: { body: \"Keep practising."))
        #expect(source.last == "…")
        #expect(carets.firstIndex(of: "^") == 18)
        #expect(carets.count == source.count - 1)
    }

    @Test func outOfRangeSpansOnALongLineDoNotCrash() {
        let text = String(repeating: "é", count: 5_000) + "\nb: 1"
        for (line, column, endLine, endColumn) in [(1, 0, 1, 0), (1, 99_999, 1, 2), (1, 4_000, 0, 0), (1, 10, 3, 1), (1, 5_001, 1, 9_999)] {
            let output = Self.render(text, line, column, to: endLine, endColumn)
            #expect(Self.allLinesFit(output))
        }
    }

    /// The machine formats carry positions, never source text.
    @Test(arguments: [DiagnosticRenderer.Format.json, .github, .sarif])
    func machineFormatsCarryNoSourceText(_ format: DiagnosticRenderer.Format) {
        let text = "k: " + String(repeating: "q", count: 10_000) + "\n"
        let output = Self.render(text, 1, 5_000, to: 1, 6_000, format: format)
        #expect(!output.contains(String(repeating: "q", count: 50)))
        #expect(Self.allLinesFit(output))
    }
}
