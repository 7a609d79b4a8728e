import Foundation
import HeraldSyntax
import Testing

@Suite struct DiagnosticRendererTests {
    static let source = SourceFile(path: "bundle/types.yaml", text: "types:\n\tcaf\u{E9}: wrong\n  b: 1\n")

    static func span(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int, path: String = "bundle/types.yaml") -> SourceSpan {
        SourceSpan(start: SourceLocation(path: path, line: line, column: column), end: SourceLocation(path: path, line: endLine, column: endColumn))
    }

    static let typo = Diagnostic(
        .yamlDuplicateKey, "unknown key `wrong` in a type",
        at: span(2, 8, 2, 13),
        notes: [.init("first defined here", span: span(3, 3, 3, 4))],
        suggestion: "wrung"
    )

    @Test func textHeaderSnippetNotesAndHelp() {
        let renderer = DiagnosticRenderer(format: .text, relativeTo: "bundle")
        let text = renderer.render([Self.typo], sources: [Self.source.path: Self.source])
        #expect(text == """
            types.yaml:2:8: error[H0102]: unknown key `wrong` in a type
              |
            2 |     caf\u{E9}: wrong
              |           ^~~~~
              = note: types.yaml:3:3: first defined here
              = help: did you mean `wrung`?
            """ + "\n")
    }

    /// A tab and a two-byte character stand before the column: the caret must still sit under
    /// the `w` of `wrong` (columns count characters; tabs expand to the same width in both lines).
    @Test func caretLinesUpAfterTabAndMultibyteCharacter() throws {
        let text = DiagnosticRenderer().render([Self.typo], sources: [Self.source.path: Self.source])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sourceLine = try #require(lines.first { $0.hasPrefix("2 |") })
        let caretLine = try #require(lines.first { $0.contains("^") })
        #expect(!sourceLine.contains("\t"))
        let w = try #require(sourceLine.firstIndex(of: "w"))
        let caret = try #require(caretLine.firstIndex(of: "^"))
        #expect(sourceLine.distance(from: sourceLine.startIndex, to: w) == caretLine.distance(from: caretLine.startIndex, to: caret))
        #expect(caretLine.hasSuffix("^~~~~"))
    }

    @Test func multiLineSpanUnderlinesToEndOfLineAndEmptySpanGetsOneCaret() {
        let source = SourceFile(path: "a.yaml", text: "key: [1,\n  2]\n")
        let long = Diagnostic(.yamlSyntax, "x", at: Self.span(1, 6, 2, 5, path: "a.yaml"))
        let point = Diagnostic(.yamlSyntax, "y", at: Self.span(1, 1, 1, 1, path: "a.yaml"))
        let text = DiagnosticRenderer().render([long], sources: ["a.yaml": source])
        #expect(text.contains("  |      ^~~\n"))
        let text2 = DiagnosticRenderer().render([point], sources: ["a.yaml": source])
        #expect(text2.contains("  | ^\n"))
    }

    @Test func outOfRangeSpansDoNotCrash() {
        let source = SourceFile(path: "a.yaml", text: "a: 1")
        for span in [Self.span(9, 9, 9, 9, path: "a.yaml"), Self.span(1, 40, 1, 2, path: "a.yaml"), Self.span(1, 0, 0, 0, path: "a.yaml")] {
            _ = DiagnosticRenderer().render([Diagnostic(.yamlSyntax, "x", at: span)], sources: ["a.yaml": source])
        }
        _ = DiagnosticRenderer().render([Diagnostic(.yamlSyntax, "no place", at: nil)], sources: [:])
    }

    @Test func colorOnlyWhenAsked() {
        let plain = DiagnosticRenderer(color: false).render([Self.typo], sources: [Self.source.path: Self.source])
        let colored = DiagnosticRenderer(color: true).render([Self.typo], sources: [Self.source.path: Self.source])
        #expect(!plain.contains("\u{1B}["))
        #expect(colored.contains("\u{1B}[1;31merror[H0102]\u{1B}[0m"))
    }

    @Test func summaryLines() {
        let renderer = DiagnosticRenderer()
        let warning = Diagnostic(.yamlEmptyFile, "empty", at: Self.span(1, 1, 1, 1, path: "b.yaml"))
        let failed = renderer.summary([
            .init(directory: "a", fileCount: 3, diagnostics: [Self.typo, Self.typo]),
            .init(directory: "b", fileCount: 2, diagnostics: [warning]),
        ])
        #expect(failed == "error: 2 errors, 1 warning in 2 files\n")
        let ok = renderer.summary([.init(directory: "policies/handz", fileCount: 12, diagnostics: [])])
        #expect(ok == "ok: policies/handz (12 files, 0 warnings)\n")
        #expect(renderer.summary([.init(directory: "b", fileCount: 1, diagnostics: [warning])]) == "ok: b (1 file, 1 warning)\n")
        #expect(renderer.summary([.init(directory: "b", fileCount: 1, diagnostics: [warning])], strict: true).hasPrefix("error: 0 errors, 1 warning in 1 file"))
    }

    @Test func json() throws {
        let text = DiagnosticRenderer(format: .json, relativeTo: "bundle").render([Self.typo])
        #expect(text.hasPrefix("{\n  \"diagnostics\": [\n    {\n      \"code\": \"H0102\",\n      \"name\": \"yaml-duplicate-key\",\n      \"severity\": \"error\","))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 1)
        #expect(object["warnings"] as? Int == 0)
        let first = try #require((object["diagnostics"] as? [[String: Any]])?.first)
        #expect(first["file"] as? String == "types.yaml")
        #expect(first["line"] as? Int == 2)
        #expect(first["column"] as? Int == 8)
        #expect(first["endLine"] as? Int == 2)
        #expect(first["endColumn"] as? Int == 13)
        #expect(first["suggestion"] as? String == "wrung")
        let note = try #require((first["notes"] as? [[String: Any]])?.first)
        #expect(note["message"] as? String == "first defined here")
        #expect(note["line"] as? Int == 3)
        #expect(Set(first.keys) == ["code", "name", "severity", "message", "file", "line", "column", "endLine", "endColumn", "notes", "suggestion"])
    }

    @Test func jsonEscapesStrings() {
        #expect(JSONOutput.string("a\"b\\c\n\u{1}é").serialized() == #""a\"b\\c\n\u0001é""#)
        #expect(JSONOutput.object([("b", .int(1)), ("a", .null)]).serialized() == #"{"b":1,"a":null}"#)
    }

    @Test func github() {
        let message = Diagnostic(.yamlDuplicateKey, "100% of `a`\nsecond line", at: Self.span(2, 8, 2, 13, path: "dir,x/a:b.yaml"))
        let text = DiagnosticRenderer(format: .github).render([message])
        #expect(text == "::error file=dir%2Cx/a%3Ab.yaml,line=2,col=8,endLine=2,endColumn=13,title=H0102 yaml-duplicate-key::100%25 of `a`%0Asecond line\n")
        let warning = Diagnostic(.yamlEmptyFile, "empty", at: nil)
        #expect(DiagnosticRenderer(format: .github).render([warning]) == "::warning title=H0114 yaml-empty-file::empty\n")
        let withHelp = DiagnosticRenderer(format: .github, relativeTo: "bundle").render([Self.typo])
        #expect(withHelp.hasSuffix("::unknown key `wrong` in a type%0Anote: types.yaml:3:3: first defined here%0Ahelp: did you mean `wrung`?\n"))
    }

    @Test func sarif() throws {
        let text = DiagnosticRenderer(format: .sarif, relativeTo: "bundle").render([Self.typo])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        #expect((object["$schema"] as? String)?.contains("sarif") == true)
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "herald")
        #expect(driver["informationUri"] is String)
        #expect(run["columnKind"] as? String == "unicodeCodePoints", "columns count Unicode scalars, not UTF-16 units")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == DiagnosticCode.all.count)
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "H0102")
        let index = try #require(result["ruleIndex"] as? Int)
        #expect(rules[index]["id"] as? String == "H0102")
        #expect(rules[index]["name"] as? String == "yaml-duplicate-key")
        #expect(((rules[index]["shortDescription"] as? [String: Any])?["text"] as? String) == DiagnosticCode.yamlDuplicateKey.summary)
        #expect(result["level"] as? String == "error")
        #expect(((result["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("unknown key `wrong` in a type") == true)
        let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "types.yaml")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 2)
        #expect(region["startColumn"] as? Int == 8)
        #expect(region["endLine"] as? Int == 2)
        #expect(region["endColumn"] as? Int == 13)
    }

    @Test func relativePaths() {
        let renderer = DiagnosticRenderer(relativeTo: "/tmp/fixture/")
        #expect(renderer.displayPath("/tmp/fixture/a.yaml") == "a.yaml")
        #expect(renderer.displayPath("/tmp/other/a.yaml") == "/tmp/other/a.yaml")
        #expect(renderer.displayPath("/tmp/fixture2/a.yaml") == "/tmp/fixture2/a.yaml")
    }
}
