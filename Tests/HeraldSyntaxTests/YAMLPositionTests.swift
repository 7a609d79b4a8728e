import Testing
@testable import HeraldSyntax

/// Positions inside scalars (`YAMLScalar.location(ofValueOffset:)`), and the reader's cost on
/// long lines: every value character maps onto itself in the file, and no span ends past the
/// end of the file.
@Suite("YAML positions")
struct YAMLPositionTests {
    static func read(_ text: String) -> (SourceFile, YAMLDocumentResult) {
        let file = SourceFile(path: "t.yaml", text: text)
        return (file, YAMLReader.read(file))
    }

    // MARK: Block scalars that keep leading spaces (issue 15, item 8a)

    @Test func indentationIndicatorKeepsLeadingSpacesInPlace() throws {
        // `when` stands at column 5, so `>1-` makes the content indentation 5: the value is
        // `  state.x > 0` and `state` (value offset 2) is at column 8, where it is written.
        let (_, r) = Self.read("t:\n  s:\n    when: >1-\n       state.x > 0\n")
        let s = try #require(r.root?["t"]?["s"]?["when"]?.scalar)
        #expect(s.value == "  state.x > 0")
        #expect(s.location(ofValueOffset: 0).line == 4)
        #expect(s.location(ofValueOffset: 0).column == 6)
        #expect(s.location(ofValueOffset: 2).column == 8)
    }

    @Test func spanOfAnIndentedLiteralWithoutFinalNewlineEndsInTheFile() throws {
        let (file, r) = Self.read("a: |1\n  ab")
        let s = try #require(r.root?["a"]?.scalar)
        #expect(s.value == " ab")
        let span = s.span(ofValueRange: 0..<s.value.utf8.count)
        #expect(span.start == SourceLocation(path: "t.yaml", line: 2, column: 2, offset: 7))
        #expect(span.end == SourceLocation(path: "t.yaml", line: 2, column: 5, offset: 10))
        #expect(span.end.offset <= file.bytes.count)
    }

    @Test func offsetsPastTheValueStopAtTheScalarsEnd() throws {
        let (file, r) = Self.read("a: |\n  ab\n")
        let s = try #require(r.root?["a"]?.scalar)
        #expect(s.location(ofValueOffset: 1_000).offset <= file.bytes.count)
        let (file2, r2) = Self.read("a: 'x'")
        let q = try #require(r2.root?["a"]?.scalar)
        #expect(q.location(ofValueOffset: 50).offset <= file2.bytes.count)
    }

    /// A multi-line flow scalar is mapped on its first line; past it, every position is the
    /// first line break, whose line and column agree with its offset (a fuzz finding: a
    /// diagnostic said 1:20 with the offset of line 3).
    @Test(arguments: [#"url: "demo://t:\n    category: updates\n  x: {""#, "url: 'a b\n  c {'", "url: a b\n  c {"])
    func multiLineFlowScalarsMapOntoTheFile(_ text: String) throws {
        let (file, r) = Self.read(text)
        let s = try #require(r.root?["url"]?.scalar)
        for offset in 0...s.value.utf8.count {
            let location = s.location(ofValueOffset: offset)
            let fresh = file.location(ofOffset: location.offset)
            #expect((location.line, location.column) == (fresh.line, fresh.column), "\(offset)")
        }
    }

    /// Where a block scalar stands: the lines before its key, what precedes the header on the
    /// header's line, and the parent's indentation (libyaml's level).
    struct Context {
        var before: String
        var lead: String
        var parent: Int
    }

    static let contexts = [
        Context(before: "", lead: "k: ", parent: 0),
        Context(before: "a:\n  b:\n", lead: "    k: ", parent: 4),
        Context(before: "list:\n", lead: "  - ", parent: 2),
        Context(before: "list:\n", lead: "- ", parent: 0),
        Context(before: "list:\n  - x: 1\n", lead: "    k: ", parent: 4),
    ]

    /// Content lines relative to the content indentation ("" is an empty line).
    static let bodies: [[String]] = [
        ["ab", "cd"],
        ["", "Café ☕ {x}", "", "  more indented", "back", ""],
        [" one leading space", "then text"],
        ["  two leading", "", "  and again"],
        ["tail  ", "x"],
    ]

    struct Case: CustomStringConvertible {
        var text: String
        /// Byte offset of the value's first character when it is not a line break.
        var firstContent: Int?
        var folded: Bool
        var description: String { text.debugDescription }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for context in contexts {
            for folded in [false, true] {
                for indicator in [0, 1, 2, 3] {
                    for chomp in ["", "-", "+"] {
                        for body in bodies {
                            for finalNewline in [true, false] {
                                // Without an indicator, libyaml takes the first line's indentation:
                                // a body whose first line keeps leading spaces would read differently,
                                // so those are written one column deeper only with an indicator.
                                let indent = indicator > 0 ? (context.parent >= 0 ? context.parent + indicator : indicator) : context.parent + 2
                                if indicator == 0, let firstText = body.first(where: { !$0.isEmpty }), firstText.hasPrefix(" ") { continue }
                                var text = context.before + context.lead + (folded ? ">" : "|")
                                text += indicator > 0 ? "\(indicator)" : ""
                                text += chomp + "\n"
                                var first: Int?
                                for (index, line) in body.enumerated() {
                                    if line.isEmpty {
                                        text += index == body.count - 1 && !finalNewline ? "" : "\n"
                                        continue
                                    }
                                    if first == nil, body[..<index].allSatisfy(\.isEmpty) {
                                        first = text.utf8.count + indent
                                    }
                                    text += String(repeating: " ", count: indent) + line
                                    if index < body.count - 1 || finalNewline { text += "\n" }
                                }
                                cases.append(Case(text: text, firstContent: first, folded: folded))
                            }
                        }
                    }
                }
            }
        }
        return cases
    }()

    static func scalar(in node: YAMLNode) -> YAMLScalar? {
        if let s = node.scalar, s.style == .literal || s.style == .folded { return s }
        for child in node.mapping?.map(\.value) ?? node.sequence ?? [] {
            if let s = scalar(in: child) { return s }
        }
        return nil
    }

    /// Every value character maps onto the same character of the file (a folded line break,
    /// a space in the value, onto the line break it replaced), with the column the file gives
    /// that offset; the value starts at its first content character; no span passes the end.
    @Test(arguments: cases)
    func blockScalarPositionsAreExact(_ c: Case) throws {
        let (file, r) = Self.read(c.text)
        #expect(!r.diagnostics.hasErrors, "\(r.diagnostics.items)")
        let root = try #require(r.root)
        let s = try #require(Self.scalar(in: root))
        let value = Array(s.value.utf8)
        let bytes = file.bytes
        for k in value.indices where value[k] != 0x0A {
            let at = s.location(ofValueOffset: k)
            try #require(at.offset < bytes.count, "value offset \(k) maps past the end")
            let source = bytes[at.offset]
            let folded = c.folded && value[k] == 0x20 && (source == 0x0A || source == 0x0D)
            #expect(source == value[k] || folded, "value offset \(k) maps onto `\(Unicode.Scalar(source))`")
            if value[k] & 0xC0 != 0x80, !folded {
                let expected = file.location(ofOffset: at.offset)
                #expect(at.line == expected.line && at.column == expected.column, "value offset \(k)")
            }
        }
        if let first = c.firstContent, value.first != 0x0A {
            #expect(s.location(ofValueOffset: 0) == file.location(ofOffset: first))
        }
        let span = s.span(ofValueRange: 0..<value.count)
        #expect(span.end.offset <= bytes.count)
        #expect(span.end.line <= file.lineStarts.count)
        #expect(span.start.offset <= span.end.offset)
    }

    // MARK: Long lines (issue 15, item 6)

    /// A one-line flow sequence: every item's span is exact (start and end), so the
    /// incremental position conversion counts columns correctly forward and back.
    @Test func flowSequenceOnOneLineHasExactSpans() throws {
        let items = (0..<2_000).map { $0 % 3 == 0 ? "\"é\($0)\"" : $0 % 3 == 1 ? "☕\($0)" : "'\($0)'" }
        let text = "v: [" + items.joined(separator: ", ") + "]\n"
        let (file, r) = Self.read(text)
        #expect(r.diagnostics.isEmpty)
        let nodes = try #require(r.root?["v"]?.sequence)
        #expect(nodes.count == items.count)
        for node in nodes {
            #expect(node.span.start == file.location(ofOffset: node.span.start.offset))
            #expect(node.span.end == file.location(ofOffset: node.span.end.offset))
            let scalar = try #require(node.scalar)
            let quoted = scalar.style != .plain ? 1 : 0
            #expect(scalar.location(ofValueOffset: 0) == file.location(ofOffset: node.span.start.offset + quoted))
        }
    }

    /// Positions asked for backwards on one line are counted back from the hint, and agree with
    /// positions counted from the line's start.
    @Test func locationsBackwardsOnALineAgreeWithFreshOnes() {
        let file = SourceFile(path: "t.yaml", text: "x: " + String(repeating: "aé☕ ", count: 500) + "\nnext")
        var hint = SourceFile.Hint()
        for offset in stride(from: file.bytes.count - 1, through: 0, by: -7) + Array(stride(from: 0, to: file.bytes.count, by: 13)) {
            #expect(file.location(hint: &hint, ofOffset: offset) == file.location(ofOffset: offset))
        }
    }
}
