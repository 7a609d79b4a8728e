import Testing
@testable import HeraldSyntax

private func read(_ text: String, limits: YAMLLimits = .standard) -> YAMLDocumentResult {
    YAMLReader.read(SourceFile(path: "t.yaml", text: text), limits: limits)
}

private func codes(_ r: YAMLDocumentResult) -> [String] { r.diagnostics.sorted.map(\.code.id) }

private func firstAt(_ r: YAMLDocumentResult) -> String? {
    r.diagnostics.sorted.first.flatMap { d in d.span.map { "\(d.code.id) \($0.start.line):\($0.start.column)" } }
}

@Suite("YAML reader")
struct YAMLReaderTests {
    @Test func readsNestedTreeWithSpans() throws {
        let r = read("""
        app:
          name: Demo
        types:
          - a
          - "b"
        """)
        #expect(r.diagnostics.isEmpty)
        let root = try #require(r.root)
        #expect(root.mapping?.map(\.key.value) == ["app", "types"])
        let name = try #require(root["app"]?["name"])
        #expect(name.scalar?.value == "Demo")
        #expect(name.span.start.line == 2)
        #expect(name.span.start.column == 9)
        let items = try #require(root["types"]?.sequence)
        #expect(items.map { $0.scalar?.value } == ["a", "b"])
        #expect(items[1].scalar?.style == .doubleQuoted)
        #expect(items[1].span.start.column == 5)
        let key = try #require(root.mapping?[1].key)
        #expect(key.span.start.line == 3 && key.span.start.column == 1)
    }

    @Test func scalarPositionsInsideQuotedScalars() throws {
        let r = read(#"when: "a \"q\" state.x""#)
        let node = try #require(r.root?["when"]?.scalar)
        #expect(node.value == #"a "q" state.x"#)
        let offset = Array(node.value.utf8).firstIndex(of: UInt8(ascii: "s"))!
        // `state` starts at column 16 of the source line.
        #expect(node.location(ofValueOffset: offset).column == 16)
        let single = try #require(read("w: 'it''s x'").root?["w"]?.scalar)
        #expect(single.value == "it's x")
        #expect(single.location(ofValueOffset: 5).column == 11)
        let plain = try #require(read("w: state.x > 3").root?["w"]?.scalar)
        #expect(plain.location(ofValueOffset: 6).column == 10)
    }

    @Test func columnsCountCharactersAfterNonASCII() throws {
        let plain = try #require(read("w: Café ☕ state.x\n").root?["w"]?.scalar)
        let offset = Array(plain.value.utf8).firstIndex(of: UInt8(ascii: "s"))!
        // `w: ` is 3 columns, `Café ☕ ` 7 more: `state` is at column 11.
        #expect(plain.location(ofValueOffset: offset).column == 11)
        let quoted = try #require(read("w: \"🎉 {nmae}\"\n").root?["w"]?.scalar)
        let brace = Array(quoted.value.utf8).firstIndex(of: UInt8(ascii: "{"))!
        #expect(quoted.location(ofValueOffset: brace).column == 7)
    }

    @Test func blockScalarAnchorsAtContent() throws {
        let r = read("body: |\n  hello\n  world\n")
        let s = try #require(r.root?["body"]?.scalar)
        #expect(s.value == "hello\nworld\n")
        #expect(s.location(ofValueOffset: 0).line == 2)
        #expect(s.location(ofValueOffset: 0).column == 3)
    }

    @Test(arguments: ["yes", "no", "on", "off", "Yes", "NO", "y", "N", "True", "FALSE"])
    func nonStrictBooleansAreRejected(_ word: String) {
        let r = read("default: \(word)\n")
        #expect(firstAt(r) == "H0103 1:10")
    }

    @Test func quotedYesAndLowercaseBooleansAreFine() {
        #expect(read("a: \"yes\"\nb: true\nc: false\nd: 'off'\n").diagnostics.isEmpty)
    }

    @Test func duplicateKeyNamesBothPlaces() throws {
        let r = read("a: 1\nb: 2\na: 3\n")
        let d = try #require(r.diagnostics.sorted.first)
        #expect(d.code == .yamlDuplicateKey)
        #expect(d.span?.start.line == 3)
        #expect(d.notes.first?.span?.start.line == 1)
        // The first value is kept.
        #expect(r.root?["a"]?.scalar?.value == "1")
    }

    @Test func duplicateKeysInNestedFlowMapping() {
        #expect(firstAt(read("x: { a: 1, a: 2 }")) == "H0102 1:12")
    }

    @Test func anchorsAliasesMergeKeysAndTagsAreRejected() {
        #expect(codes(read("a: &x 1\nb: *x\n")) == ["H0104", "H0104"])
        #expect(firstAt(read("base: { a: 1 }\nother:\n  <<: { b: 2 }\n")) == "H0105 3:3")
        #expect(firstAt(read("a: !!str 1\n")) == "H0106 1:4")
        #expect(firstAt(read("a: !custom x\n")) == "H0106 1:4")
    }

    @Test func billionLaughsStopsWithoutExpanding() {
        var text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
            previous = name
        }
        let r = read(text)
        #expect(r.diagnostics.sorted.first?.code == .yamlAnchorOrAlias)
        #expect(r.diagnostics.contains { $0.code == .yamlTooManyProblems })
        #expect(r.diagnostics.count <= 21)
    }

    @Test func multipleDocuments() {
        #expect(firstAt(read("a: 1\n---\nb: 2\n")) == "H0107 2:1")
    }

    @Test func nonStringKeys() {
        #expect(firstAt(read("1: one\n")) == "H0108 1:1")
        #expect(firstAt(read("true: x\n")) == "H0108 1:1")
        #expect(firstAt(read("? [a, b]\n: x\n")) == "H0108 1:3")
        #expect(firstAt(read("\"1\": one\n")) == nil)
    }

    @Test func invalidUTF8() {
        let bytes: [UInt8] = Array("a: 1\nb: ".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        let r = YAMLReader.read(SourceFile(path: "t.yaml", bytes: bytes))
        #expect(firstAt(r) == "H0109 2:4")
        #expect(YAMLReader.read(SourceFile(path: "t", bytes: [0xED, 0xA0, 0x80])).diagnostics.first?.code == .yamlInvalidUTF8)
        #expect(YAMLReader.read(SourceFile(path: "t", bytes: [0xF0, 0x9F])).diagnostics.first?.code == .yamlInvalidUTF8)
    }

    @Test func byteOrderMarkAndMultibyteColumns() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a: 1\nb: yes\n".utf8)
        let r = YAMLReader.read(SourceFile(path: "t.yaml", bytes: bytes))
        #expect(codes(r) == ["H0103"])
        #expect(r.diagnostics.first?.span?.start.line == 2)
        let m = read("title: \"Café ☕\"\nx: on\n")
        #expect(firstAt(m) == "H0103 2:4")
        let e = read("é: 1\né: 2\n")
        #expect(firstAt(e) == "H0102 2:1")
    }

    @Test func limits() {
        let big = String(repeating: "# comment\n", count: 20)
        #expect(firstAt(read(big, limits: YAMLLimits(maxBytes: 100))) == "H0110 1:1")
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let r = read(deep)
        #expect(r.diagnostics.first?.code == .yamlTooDeep)
        #expect(firstAt(r) == "H0111 1:65")
        let many = "[" + Array(repeating: "1", count: 200).joined(separator: ",") + "]"
        #expect(read(many, limits: YAMLLimits(maxNodes: 100)).diagnostics.first?.code == .yamlTooManyNodes)
        #expect(read(many).diagnostics.isEmpty)
    }

    @Test func tabIndentation() {
        #expect(firstAt(read("a:\n\tb: 1\n")) == "H0113 2:1")
    }

    @Test func syntaxErrorsCarryPositions() throws {
        let r = read("a: [1, 2\nb: 3\n")
        let d = try #require(r.diagnostics.first)
        #expect(d.code == .yamlSyntax)
        #expect(d.message.hasPrefix("invalid YAML: "))
        #expect(d.span != nil)
        #expect(firstAt(read("a: 'open\n")) != nil)
        #expect(firstAt(read("key: value: other\n")) == "H0101 1:11")
    }

    @Test func emptyFileIsAWarning() {
        for text in ["", "# only a comment\n", "\n\n"] {
            let r = read(text)
            #expect(r.root == nil)
            #expect(codes(r) == ["H0114"])
            #expect(!r.diagnostics.hasErrors)
        }
    }

    @Test func nullValues() throws {
        let r = read("a:\nb: ~\nc: null\n")
        #expect(r.diagnostics.isEmpty)
        #expect(r.root?["a"]?.isNull == true)
        #expect(r.root?["b"]?.isNull == true)
        #expect(r.root?["c"]?.isNull == true)
    }

    @Test func randomInputNeverCrashes() {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("ab:- \n\t[]{},'\"&*!|>#%@`?~<=yesno0123é".unicodeScalars)
        for _ in 0..<2_000 {
            let length = Int(next() % 60)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
            let r = read(text)
            // Every result is a tree, a diagnostic, or an empty-document warning: never a crash.
            #expect(r.root != nil || !r.diagnostics.isEmpty)
        }
    }
}
