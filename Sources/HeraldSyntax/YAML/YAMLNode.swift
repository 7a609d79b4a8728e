// A closed family: the YAML node tree (a node, a mapping's pairs and keys, a scalar and its
// positions), the only shapes the strict reader produces.
/// A node of a strictly-read YAML document, with its source span.
///
/// Only three shapes exist: scalars (always text; the compiler decides whether a scalar is
/// an int, a duration or an expression), mappings with string keys in document order, and
/// sequences. Anchors, aliases, tags and non-string keys never reach this tree: the reader
/// rejects them.
public struct YAMLNode: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case scalar(YAMLScalar)
        case mapping([YAMLPair])
        case sequence([YAMLNode])
    }

    public var kind: Kind
    /// From the node's first character to just past its last.
    public var span: SourceSpan

    public init(_ kind: Kind, span: SourceSpan) {
        self.kind = kind
        self.span = span
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let s) = kind { return s }
        return nil
    }

    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// A plain scalar spelled `null`, `~` or nothing at all.
    public var isNull: Bool {
        guard let s = scalar, s.style == .plain else { return false }
        return Self.isNullSpelling(s.value)
    }

    /// What kind of node this is, in words, for messages (`a mapping`, `a list`, `text`).
    public var shapeDescription: String {
        switch kind {
        case .scalar: isNull ? "null" : "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// The value for a key of a mapping node, if present.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.value == key }?.value
    }
}

/// A mapping entry. Keys are always scalars (the reader rejects any other key).
public struct YAMLPair: Sendable, Hashable {
    public var key: YAMLKey
    public var value: YAMLNode

    public init(key: YAMLKey, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A mapping key: its text and where it stands.
public struct YAMLKey: Sendable, Hashable {
    public var value: String
    public var span: SourceSpan

    public init(value: String, span: SourceSpan) {
        self.value = value
        self.span = span
    }
}

/// A scalar's text and how it was written.
public struct YAMLScalar: Sendable, Hashable {
    public enum Style: String, Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public var value: String
    public var style: Style
    /// Maps a UTF-8 offset within `value` to its position in the file. Exact for plain and
    /// quoted scalars on one line (escapes in double-quoted scalars are accounted for) and for
    /// block scalars (`|`, `>`, with or without an indentation indicator); for multi-line plain
    /// and quoted scalars, exact on the first line. Never past the scalar's end.
    public var positions: ScalarPositions

    public init(value: String, style: YAMLScalar.Style, positions: ScalarPositions) {
        self.value = value
        self.style = style
        self.positions = positions
    }

    /// The file position of the character at `utf8Offset` in `value`.
    public func location(ofValueOffset utf8Offset: Int) -> SourceLocation {
        positions.location(ofValueOffset: utf8Offset)
    }

    /// The span of `value[utf8Range]` in the file.
    public func span(ofValueRange range: Range<Int>) -> SourceSpan {
        SourceSpan(start: location(ofValueOffset: range.lowerBound), end: location(ofValueOffset: range.upperBound))
    }
}

/// The table behind `YAMLScalar.location(ofValueOffset:)`: for each run of value bytes that
/// map one-to-one onto source bytes, where that run starts in the value and in the file.
public struct ScalarPositions: Sendable, Hashable {
    /// (value offset, source location of that value byte), sorted by value offset.
    public var anchors: [Anchor]

    public struct Anchor: Sendable, Hashable {
        public var valueOffset: Int
        public var location: SourceLocation
        public init(valueOffset: Int, location: SourceLocation) {
            self.valueOffset = valueOffset
            self.location = location
        }
    }

    /// Just past the scalar in the file, when known: no value offset maps beyond it (so a span
    /// never ends past the scalar, nor past the end of the file).
    public var end: SourceLocation?

    public init(anchors: [Anchor], end: SourceLocation? = nil) {
        self.anchors = anchors
        self.end = end
    }

    /// Every value byte at the same column distance from `start` (a plain scalar on one line).
    public init(start: SourceLocation, end: SourceLocation? = nil) {
        self.anchors = [Anchor(valueOffset: 0, location: start)]
        self.end = end
    }

    /// `text` written on one line from `start`: an anchor after every non-ASCII character, so
    /// columns (which count Unicode scalars) stay exact past it.
    public init(line text: String, start: SourceLocation) {
        var anchors = [Anchor(valueOffset: 0, location: start)]
        var location = start
        var offset = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            offset += width
            location.offset += width
            location.column += 1
            if width > 1 { anchors.append(Anchor(valueOffset: offset, location: location)) }
        }
        self.anchors = anchors
        self.end = location
    }

    public func location(ofValueOffset offset: Int) -> SourceLocation {
        guard var best = anchors.first else {
            return SourceLocation(path: "", line: 0, column: 0)
        }
        for anchor in anchors where anchor.valueOffset <= offset { best = anchor }
        // Within a run, one value byte is one source byte; columns count scalars, which for
        // the ASCII that expressions are made of is the same. Good enough for a caret.
        let delta = offset - best.valueOffset
        var location = best.location
        location.column += delta
        location.offset += delta
        if let end, location.offset > end.offset { return end }
        return location
    }
}
