// A closed family: the reader's entry point (`YAMLReader`), its limits and its result, and
// the private event loop behind them (the one place that sees libyaml's events).
import CLibYAML

/// Limits that keep a hostile file from exhausting memory or time.
public struct YAMLLimits: Sendable, Hashable {
    /// Largest file accepted, in bytes.
    public var maxBytes: Int
    /// Deepest nesting of mappings and sequences.
    public var maxDepth: Int
    /// Most nodes (scalars, mappings, sequences) in one file.
    public var maxNodes: Int
    /// Most problems reported for one file before the reader stops.
    public var maxProblems: Int

    public init(maxBytes: Int = 4 << 20, maxDepth: Int = 64, maxNodes: Int = 100_000, maxProblems: Int = 20) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxProblems = maxProblems
    }

    public static let standard = YAMLLimits()

    /// The `H0110` diagnostic for a file over `maxBytes`, at its first position. The loader
    /// raises it from the file's size on disk, before reading; the reader, for bytes it is given.
    ///
    /// - Parameters:
    ///   - path: the file's diagnostic path.
    ///   - size: the file's size in bytes, or nil when only "more than the limit" is known (a
    ///     file that grew while it was being read).
    public func fileTooLarge(path: String, size: Int?) -> Diagnostic {
        let what = size.map { "file is \($0) bytes, more" } ?? "file is more"
        return Diagnostic(.yamlFileTooLarge, "\(what) than the limit of \(maxBytes) bytes",
                          at: SourceSpan(at: SourceLocation(path: path, line: 1, column: 1, offset: 0)))
    }
}

/// What reading one file produced: the root node when the file could be read, and every
/// problem found. A file with errors may still have a partial root; callers check
/// `diagnostics.hasErrors`.
public struct YAMLDocumentResult: Sendable {
    public var root: YAMLNode?
    public var diagnostics: Diagnostics

    public init(root: YAMLNode?, diagnostics: Diagnostics) {
        self.root = root
        self.diagnostics = diagnostics
    }
}

/// The strict YAML reader over libyaml's event API.
///
/// Strict on purpose (see docs/language.md, "YAML rules"): YAML 1.2 booleans only, duplicate
/// keys, anchors, aliases, merge keys and explicit tags rejected, one document per file, plain
/// string keys, tab indentation and invalid UTF-8 rejected, and limits on size, depth and node
/// count. The reader never recurses on the input's structure (an explicit stack builds the tree),
/// so no input can overflow the call stack; libyaml is linear in the input's length, and so is
/// the conversion of its marks into positions (a moving cursor and `SourceFile.location(hint:ofOffset:)`
/// never rescan a line), however long a line is.
public enum YAMLReader {
    /// Reads one file. Never crashes or hangs on any input; every problem is a diagnostic.
    public static func read(_ file: SourceFile, limits: YAMLLimits = .standard) -> YAMLDocumentResult {
        var reader = EventReader(file: file, limits: limits)
        return reader.run()
    }
}

/// Plain spellings YAML 1.1 reads as booleans and Herald rejects.
private let nonStrictBooleans: Set<String> = ["yes", "no", "on", "off", "y", "n"]

private struct EventReader {
    let file: SourceFile
    let limits: YAMLLimits
    var diagnostics = Diagnostics()
    var problems = 0
    var stopped = false
    var nodeCount = 0
    /// Byte offset of libyaml's character index 0 (3 when the file starts with a BOM).
    let base: Int
    /// A moving cursor converting libyaml's character indexes into byte offsets.
    var cursorChar = 0
    /// The line of the last position computed (`SourceFile.location(hint:ofOffset:)`).
    var lineHint = SourceFile.Hint()
    var cursorByte: Int

    init(file: SourceFile, limits: YAMLLimits) {
        self.file = file
        self.limits = limits
        let b = file.bytes
        self.base = (b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) ? 3 : 0
        self.cursorByte = base
    }

    // MARK: Frames of the explicit stack

    enum PendingKey {
        case none
        case key(YAMLKey)
        /// The key was rejected; its value is read and dropped.
        case invalid
    }

    // Frames belong to one reader on one thread.
    final class MappingFrame {
        let start: SourceLocation
        let isFlow: Bool
        var pairs: [YAMLPair] = []
        var pending: PendingKey = .none
        /// Keys seen so far, by name, once the mapping is large; small mappings compare the
        /// keys of `pairs` instead (cheaper than hashing every key).
        var seen: [String: SourceSpan] = [:]
        init(start: SourceLocation, isFlow: Bool) { self.start = start; self.isFlow = isFlow }

        static let smallMapping = 12

        /// Where `key` was first defined in this mapping, if it was.
        func firstDefinition(of key: String) -> SourceSpan? {
            if pairs.count < Self.smallMapping {
                for pair in pairs where pair.key.value == key { return pair.key.span }
                return nil
            }
            if seen.isEmpty {
                for pair in pairs where seen[pair.key.value] == nil { seen[pair.key.value] = pair.key.span }
            }
            return seen[key]
        }

        /// Records a key (the dictionary is kept only for large mappings).
        func record(_ key: String, at span: SourceSpan) {
            if !seen.isEmpty || pairs.count >= Self.smallMapping { seen[key] = span }
        }
    }

    final class SequenceFrame {
        let start: SourceLocation
        let isFlow: Bool
        var items: [YAMLNode] = []
        init(start: SourceLocation, isFlow: Bool) { self.start = start; self.isFlow = isFlow }
    }

    /// Byte ranges of every scalar (and alias), in document order, for the comment check.
    var scalarRanges: [Range<Int>] = []
    /// Nodes written in flow style or as quoted/plain scalars (not block collections or
    /// block scalars), whose continuation lines the indentation check looks at.
    var flowCollections: Set<Int> = []

    enum Frame {
        case mapping(MappingFrame)
        case sequence(SequenceFrame)
    }

    // MARK: Positions

    mutating func byteOffset(ofCharIndex index: Int) -> Int {
        let bytes = file.bytes
        while cursorChar < index, cursorByte < bytes.count {
            cursorByte += 1
            while cursorByte < bytes.count, bytes[cursorByte] & 0xC0 == 0x80 { cursorByte += 1 }
            cursorChar += 1
        }
        while cursorChar > index, cursorByte > base {
            cursorByte -= 1
            while cursorByte > base, bytes[cursorByte] & 0xC0 == 0x80 { cursorByte -= 1 }
            cursorChar -= 1
        }
        return cursorByte
    }

    mutating func location(_ mark: yaml_mark_t) -> SourceLocation {
        file.location(hint: &lineHint, ofOffset: byteOffset(ofCharIndex: Int(mark.index)))
    }

    mutating func span(_ start: yaml_mark_t, _ end: yaml_mark_t) -> SourceSpan {
        SourceSpan(start: location(start), end: location(end))
    }

    // MARK: Reporting

    mutating func report(_ code: DiagnosticCode, _ message: String, at span: SourceSpan?, notes: [Diagnostic.Note] = [], severity: Severity = .error) {
        guard !stopped else { return }
        diagnostics.append(Diagnostic(code, message, at: span, severity: severity, notes: notes))
        if severity == .error {
            problems += 1
            if problems >= limits.maxProblems {
                diagnostics.append(Diagnostic(
                    .yamlTooManyProblems,
                    "stopped reading this file after \(problems) problems",
                    at: span, severity: .note))
                stopped = true
            }
        }
    }

    // MARK: Pre-checks

    /// The byte offset of the first invalid UTF-8 sequence, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            var need: Int
            var minScalar: UInt32
            var scalar: UInt32
            if b & 0xE0 == 0xC0 { need = 1; minScalar = 0x80; scalar = UInt32(b & 0x1F) }
            else if b & 0xF0 == 0xE0 { need = 2; minScalar = 0x800; scalar = UInt32(b & 0x0F) }
            else if b & 0xF8 == 0xF0 { need = 3; minScalar = 0x10000; scalar = UInt32(b & 0x07) }
            else { return i }
            var j = 1
            while j <= need {
                guard i + j < n else { return i }
                let c = bytes[i + j]
                guard c & 0xC0 == 0x80 else { return i }
                scalar = (scalar << 6) | UInt32(c & 0x3F)
                j += 1
            }
            if scalar < minScalar || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
            i += need + 1
        }
        return nil
    }

    // MARK: Run

    mutating func run() -> YAMLDocumentResult {
        let bytes = file.bytes
        if bytes.count > limits.maxBytes {
            let tooLarge = limits.fileTooLarge(path: file.path, size: bytes.count)
            report(tooLarge.code, tooLarge.message, at: tooLarge.span)
            return YAMLDocumentResult(root: nil, diagnostics: diagnostics)
        }
        if let bad = EventReader.firstInvalidUTF8(bytes) {
            let at = file.location(hint: &lineHint, ofOffset: bad)
            report(.yamlInvalidUTF8,
                   "invalid UTF-8 byte `0x\(String(bytes[bad], radix: 16, uppercase: true))`; save the file as UTF-8",
                   at: SourceSpan(at: at))
            return YAMLDocumentResult(root: nil, diagnostics: diagnostics)
        }

        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            report(.yamlSyntax, "could not start the YAML parser (out of memory)", at: nil)
            return YAMLDocumentResult(root: nil, diagnostics: diagnostics)
        }
        defer { yaml_parser_delete(&parser) }

        var root: YAMLNode?
        bytes.withUnsafeBufferPointer { buffer in
            // libyaml only reads the buffer; an empty file still needs a valid pointer.
            let empty: [UInt8] = [0]
            if buffer.count == 0 {
                empty.withUnsafeBufferPointer { e in
                    yaml_parser_set_input_string(&parser, e.baseAddress, 0)
                    root = parse(&parser)
                }
            } else {
                yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
                root = parse(&parser)
            }
        }
        return YAMLDocumentResult(root: root, diagnostics: diagnostics)
    }

    mutating func parse(_ parser: inout yaml_parser_t) -> YAMLNode? {
        var stack: [Frame] = []
        var root: YAMLNode?
        var documents = 0
        var event = yaml_event_t()

        while !stopped {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                reportParserError(parser)
                return root
            }
            defer { yaml_event_delete(&event) }
            let type = event.type
            if type == YAML_STREAM_END_EVENT { break }

            switch type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    report(.yamlMultipleDocuments,
                           "a second YAML document starts here; a Herald file holds exactly one",
                           at: span(event.start_mark, event.end_mark),
                           notes: [Diagnostic.Note("split the documents into separate files")])
                    return root
                }

            case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                let isMapping = type == YAML_MAPPING_START_EVENT
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
                checkProperties(anchor: anchor, tag: tag, event: event)
                if stack.count >= limits.maxDepth {
                    report(.yamlTooDeep,
                           "nesting deeper than \(limits.maxDepth) levels",
                           at: span(event.start_mark, event.start_mark))
                    stopped = true
                    return nil
                }
                guard countNode(event) else { return nil }
                let start = location(event.start_mark)
                let isFlow = isMapping
                    ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                    : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                if isFlow { flowCollections.insert(start.offset) }
                stack.append(isMapping ? .mapping(MappingFrame(start: start, isFlow: isFlow)) : .sequence(SequenceFrame(start: start, isFlow: isFlow)))

            case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                guard let frame = stack.popLast() else { break }
                let end = location(event.end_mark)
                let node: YAMLNode
                switch frame {
                case .mapping(let m): node = YAMLNode(.mapping(m.pairs), span: SourceSpan(start: m.start, end: end))
                case .sequence(let s): node = YAMLNode(.sequence(s.items), span: SourceSpan(start: s.start, end: end))
                }
                attach(node, to: &stack, root: &root)

            case YAML_SCALAR_EVENT:
                checkProperties(anchor: event.data.scalar.anchor, tag: event.data.scalar.tag, event: event)
                guard countNode(event) else { return nil }
                let node = scalarNode(event, blockIndent: blockIndent(of: stack.last))
                scalarRanges.append(node.span.start.offset..<max(node.span.start.offset, node.span.end.offset))
                if style(of: node) == .plain, node.scalar?.value == "-", stack.last.map(isFlowFrame) == true {
                    report(.yamlSyntax, "invalid YAML: a lone `-` in a flow collection is not a value; quote it (`\"-\"`)", at: node.span)
                }
                attach(node, to: &stack, root: &root)

            case YAML_ALIAS_EVENT:
                let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                report(.yamlAnchorOrAlias,
                       "alias `*\(name)` is not supported; write the value out in full",
                       at: span(event.start_mark, event.end_mark))
                guard countNode(event) else { return nil }
                let s = span(event.start_mark, event.end_mark)
                let placeholder = YAMLNode(.scalar(YAMLScalar(value: "", style: .plain, positions: ScalarPositions(start: s.start))), span: s)
                attach(placeholder, to: &stack, root: &root)

            default:
                break
            }
        }
        if !stopped { checkComments() }
        if documents == 0 && !stopped {
            report(.yamlEmptyFile, "file holds no YAML document",
                   at: SourceSpan(at: SourceLocation(path: file.path, line: 1, column: 1, offset: 0)),
                   severity: .warning)
        }
        return root
    }

    mutating func countNode(_ event: yaml_event_t) -> Bool {
        nodeCount += 1
        if nodeCount > limits.maxNodes {
            report(.yamlTooManyNodes,
                   "more than \(limits.maxNodes) nodes in one file",
                   at: span(event.start_mark, event.end_mark))
            stopped = true
            return false
        }
        return true
    }

    mutating func checkProperties(anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, event: yaml_event_t) {
        if let anchor {
            let name = String(cString: anchor)
            report(.yamlAnchorOrAlias,
                   "anchor `&\(name)` is not supported; write each value out in full",
                   at: span(event.start_mark, event.end_mark))
        }
        if let tag {
            let name = String(cString: tag)
            report(.yamlTag,
                   "explicit tag `\(name)` is not supported; Herald decides each value's type from its place",
                   at: span(event.start_mark, event.end_mark))
        }
    }

    func style(of node: YAMLNode) -> YAMLScalar.Style? { node.scalar?.style }

    func isFlowFrame(_ frame: Frame) -> Bool {
        switch frame {
        case .mapping(let m): m.isFlow
        case .sequence(let s): s.isFlow
        }
    }

    /// In block context, the continuation lines of a multi-line flow collection or quoted or
    /// plain scalar must be indented past the block's indentation, with spaces (YAML 1.2 §6.1,
    /// §7.3). libyaml does not check this; `indent` is the 1-based column of the owning key or `-`.
    mutating func checkContinuation(_ node: YAMLNode, indent column: Int) {
        let isFlow: Bool
        switch node.kind {
        case .scalar(let scalar): isFlow = scalar.style != .literal && scalar.style != .folded
        default: isFlow = flowCollections.contains(node.span.start.offset)
        }
        guard isFlow, node.span.end.line > node.span.start.line else { return }
        let bytes = file.bytes
        var line = node.span.start.line + 1
        while line <= node.span.end.line, line <= file.lineStarts.count {
            var i = file.lineStarts[line - 1]
            var spaces = 0
            while i < bytes.count, bytes[i] == 0x20 { i += 1; spaces += 1 }
            let blank = i >= bytes.count || bytes[i] == 0x0A || bytes[i] == 0x0D
            if !blank, i < bytes.count, bytes[i] == 0x09 {
                report(.yamlTabIndentation, "tab character where YAML allows only spaces; indent with spaces",
                       at: SourceSpan(at: file.location(hint: &lineHint, ofOffset: i)))
                return
            }
            if !blank, spaces < column, !(line == node.span.end.line && i >= node.span.end.offset - 1 && spaces >= column - 1 && node.scalar == nil) {
                report(.yamlSyntax,
                       "invalid YAML: this continuation line must be indented more than the line that starts the value",
                       at: SourceSpan(at: file.location(hint: &lineHint, ofOffset: i)))
                return
            }
            line += 1
        }
    }

    /// A `#` starts a comment only after whitespace or at the start of a line (YAML 1.2 §6.6);
    /// libyaml accepts `]#x` and `"v"#x`. Any `#` outside every scalar that follows another
    /// character is rejected.
    mutating func checkComments() {
        let bytes = file.bytes
        var range = 0
        var i = base
        var atLineStart = true
        var previous: UInt8 = 0x0A
        while i < bytes.count {
            while range < scalarRanges.count, scalarRanges[range].upperBound <= i { range += 1 }
            if range < scalarRanges.count, scalarRanges[range].contains(i) {
                i = scalarRanges[range].upperBound
                previous = i > 0 ? bytes[i - 1] : 0x0A
                atLineStart = previous == 0x0A || previous == 0x0D
                continue
            }
            let b = bytes[i]
            if b == 0x23 {
                if atLineStart || previous == 0x20 || previous == 0x09 || previous == 0x0A || previous == 0x0D {
                    while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
                    continue
                }
                report(.yamlSyntax, "invalid YAML: a comment needs a space before `#`",
                       at: SourceSpan(at: file.location(hint: &lineHint, ofOffset: i)))
                return
            }
            atLineStart = b == 0x0A || b == 0x0D
            previous = b
            i += 1
        }
    }

    mutating func attach(_ node: YAMLNode, to stack: inout [Frame], root: inout YAMLNode?) {
        guard let top = stack.last else {
            root = node
            return
        }
        switch top {
        case .sequence(let s):
            if !s.isFlow {
                // The entry's owning `-` sits two columns before a same-line value at best;
                // continuation lines must be indented past the `-`.
                checkContinuation(node, indent: s.start.column)
            }
            s.items.append(node)
        case .mapping(let m):
            switch m.pending {
            case .none:
                m.pending = makeKey(node, in: m)
            case .key(let key):
                if !m.isFlow { checkContinuation(node, indent: m.start.column) }
                m.pairs.append(YAMLPair(key: key, value: node))
                m.pending = .none
            case .invalid:
                m.pending = .none
            }
        }
    }

    /// Checks a node in key position: a plain string, not a merge key, not a duplicate.
    mutating func makeKey(_ node: YAMLNode, in frame: MappingFrame) -> PendingKey {
        guard let scalar = node.scalar else {
            report(.yamlNonStringKey,
                   "a mapping key must be a string, not \(node.shapeDescription)",
                   at: node.span)
            return .invalid
        }
        if scalar.style == .plain {
            let v = scalar.value
            if v == "<<" {
                report(.yamlMergeKey, "merge key `<<` is not supported; write the keys out in full", at: node.span)
                return .invalid
            }
            if node.isNull {
                report(.yamlNonStringKey, "a mapping key is empty (null)", at: node.span)
                return .invalid
            }
            if let kind = nonStringKind(v) {
                report(.yamlNonStringKey,
                       "key `\(v)` reads as \(kind), not a string; quote it (`\"\(v)\"`)",
                       at: node.span)
                return .invalid
            }
        }
        if let first = frame.firstDefinition(of: scalar.value) {
            report(.yamlDuplicateKey,
                   "duplicate key `\(scalar.value)`",
                   at: node.span,
                   notes: [Diagnostic.Note("`\(scalar.value)` is first defined here", span: first)])
            return .invalid
        }
        frame.record(scalar.value, at: node.span)
        return .key(YAMLKey(value: scalar.value, span: node.span))
    }

    /// What a plain scalar resolves to under YAML 1.2's core schema, when not a string.
    func nonStringKind(_ v: String) -> String? {
        // Keys are checked by their bytes: almost every key starts with a letter that no
        // boolean or number starts with, and is rejected at the first byte.
        let bytes = v.utf8
        guard let first = bytes.first else { return nil }
        switch first {
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"),
             UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"),
             UInt8(ascii: "o"), UInt8(ascii: "O"):
            if v == "true" || v == "false" || v == "True" || v == "False" || v == "TRUE" || v == "FALSE" { return "a boolean" }
            guard bytes.count <= 3 else { return nil }
            return nonStrictBooleans.contains(v.lowercased()) ? "a boolean in YAML 1.1" : nil
        case UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            var digits = bytes[...]
            if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            guard !digits.isEmpty else { return nil }
            var dots = 0
            for byte in digits {
                if byte == UInt8(ascii: ".") { dots += 1 } else if !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) { return nil }
            }
            if dots == 0 { return "a number" }
            return dots == 1 && digits.count > 1 ? "a number" : nil
        default:
            return nil
        }
    }

    /// libyaml's indentation level for a node whose parent is `frame`: the 0-based column of the
    /// parent block collection's first key or `-` (-1 at the top level), which a block scalar's
    /// indentation indicator counts from.
    func blockIndent(of frame: Frame?) -> Int {
        let start: SourceLocation
        switch frame {
        case .none: return -1
        case .mapping(let m)?: start = m.start
        case .sequence(let s)?: start = s.start
        }
        // Columns count a leading byte order mark; libyaml's do not.
        return start.column - 1 - (start.line == 1 && base > 0 ? 1 : 0)
    }

    /// - Parameter blockIndent: `blockIndent(of:)` the frame the scalar belongs to.
    mutating func scalarNode(_ event: yaml_event_t, blockIndent: Int) -> YAMLNode {
        let data = event.data.scalar
        let value: String
        if let p = data.value {
            let buffer = UnsafeBufferPointer(start: p, count: Int(data.length))
            value = String(decoding: buffer, as: UTF8.self)
        } else {
            value = ""
        }
        let style: YAMLScalar.Style
        switch data.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        let nodeSpan = span(event.start_mark, event.end_mark)
        let positions = scalarPositions(style: style, value: value, span: nodeSpan, blockIndent: blockIndent)
        let node = YAMLNode(.scalar(YAMLScalar(value: value, style: style, positions: positions)), span: nodeSpan)
        if style == .literal || style == .folded {
            // The header (`|`, `>-`, `|2`) may be followed by a comment only after a space.
            let bytes = file.bytes
            var i = nodeSpan.start.offset
            while i < bytes.count, bytes[i] == UInt8(ascii: "|") || bytes[i] == UInt8(ascii: ">") || bytes[i] == UInt8(ascii: "+")
                || bytes[i] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[i]) { i += 1 }
            if i < bytes.count, bytes[i] == 0x23 {
                report(.yamlSyntax, "invalid YAML: a comment needs a space before `#`", at: SourceSpan(at: file.location(hint: &lineHint, ofOffset: i)))
            }
        }
        if style == .plain, data.tag == nil {
            if value.utf8.count <= 3, nonStrictBooleans.contains(value.lowercased()) {
                report(.yamlNonStrictBoolean,
                       "`\(value)` is not a boolean in Herald; write `true` or `false`, or quote it (`\"\(value)\"`) if you mean text",
                       at: nodeSpan)
            } else if value == "True" || value == "TRUE" || value == "False" || value == "FALSE" {
                report(.yamlNonStrictBoolean,
                       "write booleans in lowercase: `\(value.lowercased())`, or quote `\(value)` if you mean text",
                       at: nodeSpan)
            }
        }
        return node
    }

    /// Maps value offsets to file positions. Exact for plain and quoted scalars on one line
    /// (escapes accounted for) and for block scalars (each content line anchored at its
    /// indentation, which may leave leading spaces in the value); for multi-line quoted and
    /// plain scalars, exact on the first line. No value offset maps past the scalar's end.
    mutating func scalarPositions(style: YAMLScalar.Style, value: String, span nodeSpan: SourceSpan, blockIndent: Int) -> ScalarPositions {
        var positions = scalarAnchors(style: style, value: value, span: nodeSpan, blockIndent: blockIndent)
        // A multi-line flow scalar's anchors stop at its first line break, which is then its
        // last mapped position: past it, a line and column made up from a byte count would name
        // another place than the offset does.
        if positions.end == nil { positions.end = nodeSpan.end }
        return positions
    }

    mutating func scalarAnchors(style: YAMLScalar.Style, value: String, span nodeSpan: SourceSpan, blockIndent: Int) -> ScalarPositions {
        let bytes = file.bytes
        let startOffset = nodeSpan.start.offset
        let endOffset = nodeSpan.end.offset
        switch style {
        case .plain:
            // One anchor per non-ASCII character, so columns (which count characters) stay
            // exact after `é` or an emoji; ASCII runs need none.
            var anchors = [ScalarPositions.Anchor(valueOffset: 0, location: file.location(hint: &lineHint, ofOffset: startOffset))]
            var src = startOffset
            let end = min(endOffset, bytes.count)
            while src < end, bytes[src] != 0x0A, bytes[src] != 0x0D {
                let width = utf8Width(bytes[src])
                src += width
                if width > 1 {
                    anchors.append(.init(valueOffset: src - startOffset, location: file.location(hint: &lineHint, ofOffset: min(src, bytes.count))))
                }
            }
            let firstLineEnd = src < end ? file.location(hint: &lineHint, ofOffset: src) : nil
            return ScalarPositions(anchors: anchors, end: firstLineEnd)
        case .literal, .folded:
            return blockScalarAnchors(value: value, span: nodeSpan, blockIndent: blockIndent)
        case .singleQuoted, .doubleQuoted:
            var anchors: [ScalarPositions.Anchor] = []
            var src = startOffset + 1
            var val = 0
            anchors.append(.init(valueOffset: 0, location: file.location(hint: &lineHint, ofOffset: src)))
            let end = max(src, endOffset - 1)
            let quote: UInt8 = style == .singleQuoted ? 0x27 : 0x22
            while src < end {
                let b = bytes[src]
                if b == 0x0A || b == 0x0D { // multi-line: folding; keep the anchors so far
                    return ScalarPositions(anchors: anchors, end: file.location(hint: &lineHint, ofOffset: src))
                }
                if style == .singleQuoted, b == quote, src + 1 < end, bytes[src + 1] == quote {
                    src += 2
                    val += 1
                    anchors.append(.init(valueOffset: val, location: file.location(hint: &lineHint, ofOffset: src)))
                    continue
                }
                if style == .doubleQuoted, b == 0x5C, src + 1 < end {
                    let e = bytes[src + 1]
                    var srcLen = 2
                    var valLen = 1
                    switch e {
                    case UInt8(ascii: "x"): srcLen = 4; valLen = utf8Length(hex: bytes, from: src + 2, count: 2)
                    case UInt8(ascii: "u"): srcLen = 6; valLen = utf8Length(hex: bytes, from: src + 2, count: 4)
                    case UInt8(ascii: "U"): srcLen = 10; valLen = utf8Length(hex: bytes, from: src + 2, count: 8)
                    case UInt8(ascii: "N"), UInt8(ascii: "_"): valLen = 2
                    case UInt8(ascii: "L"), UInt8(ascii: "P"): valLen = 3
                    case 0x0A, 0x0D: return ScalarPositions(anchors: anchors, end: file.location(hint: &lineHint, ofOffset: src))
                    default: break
                    }
                    src += srcLen
                    val += valLen
                    anchors.append(.init(valueOffset: val, location: file.location(hint: &lineHint, ofOffset: min(src, bytes.count))))
                    continue
                }
                // One source byte is one value byte (UTF-8 passes through unchanged); after a
                // multi-byte character a new anchor keeps columns counting characters.
                let width = utf8Width(b)
                src += width
                val += width
                if width > 1 {
                    anchors.append(.init(valueOffset: val, location: file.location(hint: &lineHint, ofOffset: min(src, bytes.count))))
                }
            }
            return ScalarPositions(anchors: anchors)
        }
    }

    /// Anchors for a literal (`|`) or folded (`>`) scalar: one at the start of every content
    /// line (past the block's indentation, so spaces kept in the value map onto themselves) and
    /// one after every non-ASCII character.
    ///
    /// The indentation is libyaml's: the parent's level plus the indicator (`|2`), or, without
    /// one, the most spaces before the first non-blank line (at least one more than the parent).
    /// Each line is then found in the value after the separator its line break was folded into
    /// (line breaks, or one space); where the value does not hold the line as expected the
    /// anchors stop, so a position is never made up.
    mutating func blockScalarAnchors(value: String, span nodeSpan: SourceSpan, blockIndent: Int) -> ScalarPositions {
        let bytes = file.bytes
        let endOffset = min(nodeSpan.end.offset, bytes.count)
        // The header: `|` or `>`, then an indentation digit and a chomping sign in either order.
        var indicator = 0
        var i = nodeSpan.start.offset + 1
        while i < bytes.count, i < nodeSpan.start.offset + 3 {
            let b = bytes[i]
            if (0x31...0x39).contains(b) { indicator = Int(b - 0x30) } else if b != UInt8(ascii: "+"), b != UInt8(ascii: "-") { break }
            i += 1
        }
        // Content starts on the line after the header.
        var line = nodeSpan.start.line + 1
        let lineCount = file.lineStarts.count
        func lineEnd(_ line: Int) -> Int {
            var end = line < lineCount ? file.lineStarts[line] : bytes.count
            while end > file.lineStarts[line - 1], bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
            return end
        }
        func spaces(_ line: Int) -> Int {
            var j = file.lineStarts[line - 1]
            let end = lineEnd(line)
            while j < end, bytes[j] == 0x20 { j += 1 }
            return j - file.lineStarts[line - 1]
        }
        var indent: Int
        if indicator > 0 {
            indent = blockIndent >= 0 ? blockIndent + indicator : indicator
        } else {
            indent = 0
            var probe = line
            while probe <= lineCount, file.lineStarts[probe - 1] < endOffset {
                let count = spaces(probe)
                indent = max(indent, count)
                if file.lineStarts[probe - 1] + count < lineEnd(probe) { break }
                probe += 1
            }
            indent = max(indent, blockIndent + 1, 1)
        }
        guard line <= lineCount, file.lineStarts[line - 1] < endOffset else {
            // An empty scalar (the header ends the file or the block): its end.
            return ScalarPositions(start: nodeSpan.end)
        }
        // Where value offset 0 is when the value starts with empty lines (or is empty).
        let firstStart = file.lineStarts[line - 1] + min(indent, spaces(line))
        var anchors: [ScalarPositions.Anchor] = []
        let valueBytes = Array(value.utf8)
        var v = 0
        while line <= lineCount, file.lineStarts[line - 1] < endOffset {
            let start = file.lineStarts[line - 1] + min(indent, spaces(line))
            let end = min(lineEnd(line), endOffset)
            line += 1
            // A line of no more than the indentation is empty: a `\n` in the value, or none.
            guard start < end else { continue }
            if v > 0, v < valueBytes.count, valueBytes[v] == 0x20, bytes[start] != 0x20 {
                v += 1 // a folded line break (never before the first line, nor before a more-indented one)
            } else {
                while v < valueBytes.count, valueBytes[v] == 0x0A { v += 1 }
            }
            guard end - start <= valueBytes.count - v, valueBytes[v..<(v + end - start)].elementsEqual(bytes[start..<end]) else { break }
            if anchors.isEmpty, v > 0 {
                anchors.append(.init(valueOffset: 0, location: file.location(hint: &lineHint, ofOffset: firstStart)))
            }
            anchors.append(.init(valueOffset: v, location: file.location(hint: &lineHint, ofOffset: start)))
            var src = start
            while src < end {
                let width = utf8Width(bytes[src])
                src += width
                v += width
                if width > 1 {
                    anchors.append(.init(valueOffset: v, location: file.location(hint: &lineHint, ofOffset: min(src, end))))
                }
            }
        }
        if anchors.isEmpty {
            anchors.append(.init(valueOffset: 0, location: file.location(hint: &lineHint, ofOffset: firstStart)))
        }
        return ScalarPositions(anchors: anchors)
    }

    /// Bytes in the UTF-8 sequence a lead byte starts (1 for ASCII and stray continuation bytes).
    func utf8Width(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF7: 4
        default: 1
        }
    }

    func utf8Length(hex bytes: [UInt8], from start: Int, count: Int) -> Int {
        var scalar: UInt32 = 0
        var i = start
        while i < start + count, i < bytes.count {
            guard let digit = hexValue(bytes[i]) else { return 1 }
            scalar = scalar << 4 | UInt32(digit)
            i += 1
        }
        switch scalar {
        case 0..<0x80: return 1
        case 0x80..<0x800: return 2
        case 0x800..<0x10000: return 3
        default: return 4
        }
    }

    func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    mutating func reportParserError(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        let context = parser.context.map { String(cString: $0) }
        let at: SourceLocation
        if parser.error == YAML_READER_ERROR {
            at = file.location(hint: &lineHint, ofOffset: base + Int(parser.problem_offset))
        } else {
            at = location(parser.problem_mark)
        }
        let bytes = file.bytes
        if at.offset < bytes.count, bytes[at.offset] == 0x09 {
            report(.yamlTabIndentation,
                   "tab character where YAML allows only spaces; indent with spaces",
                   at: SourceSpan(at: at))
            return
        }
        var message = "invalid YAML: \(problem)"
        if let context { message += " (\(context))" }
        var notes: [Diagnostic.Note] = []
        if context != nil, parser.error != YAML_READER_ERROR {
            let contextAt = location(parser.context_mark)
            if contextAt != at {
                notes.append(Diagnostic.Note("\(context ?? "") started here", span: SourceSpan(at: contextAt)))
            }
        }
        report(.yamlSyntax, message, at: SourceSpan(at: at), notes: notes)
    }
}
