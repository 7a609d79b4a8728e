public import HeraldSyntax

/// A copy template in Herald's ICU MessageFormat subset, parsed once when the bundle compiles:
///
/// - `{name}` — a value (a declared param, or `type`, `subject`, `count`, `first` where allowed);
/// - `{n, plural, =0 {…} one {# item} other {# items}}` — `=N`, `zero`, `one`, `two`, `few`,
///   `many` and the required `other`; `#` is the number. Selection is English: an exact `=N`
///   first, then `one` for 1, else `other` (`zero`, `two`, `few`, `many` are accepted for
///   translators and chosen only through `=N`);
/// - `{k, select, a {…} b {…} other {…}}` — on a string, enum or bool value; `other` required;
/// - `{t, time}`, `{t, time, 12h}`, `{d, date}`, `{d, date, medium|long|weekday}` — an instant
///   in the user's zone, or a local time or date (`TemplateFormat`);
/// - `'{'`, `'}'`, `'#'` quote a character, `''` is one apostrophe; any other `'` is literal.
///
/// Plural and select nest. See docs/templates.md.
public struct MessageTemplate: Sendable, Hashable {
    /// The template's text as written.
    public var source: String { storage.source }
    public var span: SourceSpan { storage.span }
    /// Every placeholder name used (params, `type`, `subject`, `count`, `first`), in first-use order.
    public var placeholders: [String] { storage.placeholders }
    var parts: [TemplatePart] { storage.parts }
    /// The whole text when the template has no placeholder (it renders to this).
    public var literal: String? { storage.literal }
    /// Immutable and shared: copying a template is one reference count.
    private let storage: Storage

    private final class Storage: Sendable {
        let source: String
        let span: SourceSpan
        let placeholders: [String]
        let parts: [TemplatePart]
        /// The whole text when the template has no placeholder.
        let literal: String?
        /// `parts` compiled for rendering.
        let program: TemplateProgram
        /// A `time` or `date` placeholder: rendering may ask the user's offset.
        let readsZone: Bool

        init(source: String, span: SourceSpan, placeholders: [String], parts: [TemplatePart]) {
            self.source = source
            self.span = span
            self.placeholders = placeholders
            self.parts = parts
            program = TemplateProgram(parts, placeholders: placeholders)
            readsZone = program.hasFormat
            if parts.count == 1, case .text(let text) = parts[0] { literal = text } else { literal = nil }
        }
    }

    public init(source: String, span: SourceSpan, placeholders: [String]) {
        storage = Storage(source: source, span: span, placeholders: placeholders, parts: [.text(source)])
    }

    init(source: String, span: SourceSpan, parts: [TemplatePart]) {
        var names: [String] = []
        TemplatePart.collect(parts, into: &names)
        storage = Storage(source: source, span: span, placeholders: names, parts: parts)
    }

    /// Parses `scalar` and checks every placeholder against `allowed` (name → type; `plural`
    /// needs an int, `select` a string, enum or bool). Errors point at the placeholder's column;
    /// a name in `refused` is reported with its own code and message.
    public static func compile(
        _ scalar: YAMLScalar,
        span: SourceSpan,
        allowed: [String: ValueType],
        refused: [String: (code: DiagnosticCode, message: String)] = [:],
        diagnostics: inout Diagnostics
    ) -> MessageTemplate? {
        var parser = TemplateParser(scalar: scalar, allowed: allowed)
        parser.refused = refused
        let parts = parser.parseMessage(inPlural: false, nested: false)
        diagnostics.append(contentsOf: parser.diagnostics)
        guard !parser.failed else { return nil }
        return MessageTemplate(source: scalar.value, span: span, parts: parts)
    }

    /// Renders with the given values (a missing value renders as empty text).
    public func render(_ values: [String: Value]) -> String {
        render { values[$0] }
    }

    /// Renders with values looked up by placeholder name (nil: missing, renders as empty
    /// text). Plain text returns the template's own string without copying it. `offset`: as
    /// for `render(byIndex:offset:)`.
    public func render(_ values: (String) -> Value?, offset: (Int) -> Int = { _ in 0 }) -> String {
        let names = storage.placeholders
        return render(byIndex: { values(names[$0]) }, offset: offset)
    }

    /// Whether rendering asks the user's zone (`{x, time}` or `{x, date}` of an instant).
    public var readsZone: Bool { storage.readsZone }

    /// Renders with values looked up by their placeholder's index in `placeholders`: a
    /// caller that resolves each placeholder once (the engine binds them to param slots and
    /// built-ins) renders without comparing a name. Copy up to 512 bytes is built on the
    /// stack, so the string is the only allocation.
    ///
    /// `offset` answers the user's UTC offset (seconds east) at an instant, for `{x, time}` and
    /// `{x, date}` of an instant param; it is asked nothing by other templates. Without it,
    /// instants are shown in UTC.
    public func render(byIndex value: (Int) -> Value?, offset: (Int) -> Int = { _ in 0 }) -> String {
        if let literal = storage.literal { return literal }
        let program = storage.program
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            var sink = FixedSink(buffer)
            program.render(into: &sink, value: value, offset: offset)
            if !sink.overflowed {
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<sink.count]), as: UTF8.self)
            }
            var out = TextBuffer(capacity: storage.source.utf8.count * 2 + 512)
            program.render(into: &out, value: value, offset: offset)
            return out.string
        }
    }

    /// Whether the template is plain text (no placeholder).
    public var isLiteral: Bool { placeholders.isEmpty }

    public static func == (a: MessageTemplate, b: MessageTemplate) -> Bool { a.source == b.source && a.span == b.span }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// A deep-link route template such as `demo://maintenance?filter={filter}`.
public struct RouteTemplate: Sendable, Hashable {
    public let source: String
    public let span: SourceSpan
    /// The `{name}` placeholders, in order.
    public let params: [String]
    /// Literal text and placeholders, alternating as written.
    let pieces: [Piece]
    /// The optional params (`T?`): each is the whole value of a query item, which rendering
    /// leaves out when the value is absent or empty (`RouteTemplate+Optional.swift`).
    let optional: Set<String>

    enum Piece: Sendable, Hashable {
        case text(String)
        case param(String)
    }

    public init(source: String, span: SourceSpan, params: [String]) {
        self.source = source
        self.span = span
        self.params = params
        self.pieces = [.text(source)]
        self.optional = []
    }

    init(source: String, span: SourceSpan, pieces: [Piece], optional: Set<String> = []) {
        self.source = source
        self.span = span
        self.pieces = pieces
        self.optional = optional
        self.params = pieces.compactMap { if case .param(let p) = $0 { p } else { nil } }
    }

    /// Parses a route `url`; every placeholder must be in `declared` and every declared param
    /// must appear. `scheme` is the catalog's app scheme (`https://` is always allowed).
    public static func compile(
        _ scalar: YAMLScalar,
        span: SourceSpan,
        declared: [String: ValueType],
        scheme: String?,
        diagnostics: inout Diagnostics
    ) -> RouteTemplate? {
        let bytes = Array(scalar.value.utf8)
        var pieces: [Piece] = []
        var failed = false
        var text: [UInt8] = []
        var i = 0
        var seen: Set<String> = []
        let valueSpan = { (range: Range<Int>) in scalar.span(ofValueRange: range) }
        if let scheme, !scalar.value.hasPrefix(scheme + "://"), !scalar.value.hasPrefix("https://") {
            diagnostics.error(.routeScheme,
                              "route url `\(scalar.value)` must start with `\(scheme)://` (the app's scheme) or `https://`",
                              at: valueSpan(0..<min(bytes.count, max(1, bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count))))
            failed = true
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "}") {
                diagnostics.error(.templateSyntax, "unmatched `}` in route url", at: valueSpan(i..<(i + 1)))
                return nil
            }
            guard b == UInt8(ascii: "{") else { text.append(b); i += 1; continue }
            guard let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
                diagnostics.error(.templateSyntax, "unclosed `{` in route url", at: valueSpan(i..<(i + 1)))
                return nil
            }
            let name = String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
            if !text.isEmpty { pieces.append(.text(String(decoding: text, as: UTF8.self))); text = [] }
            if name.isEmpty || !name.unicodeScalars.allSatisfy(TemplateParser.isNameScalar) {
                diagnostics.error(.templateSyntax, "`{\(name)}` is not a param placeholder; write `{name}`", at: valueSpan(i..<(close + 1)))
                failed = true
            } else if declared[name] == nil {
                diagnostics.error(.routeUndeclaredParam,
                                  "route url uses `{\(name)}` but the route declares no param `\(name)`",
                                  at: valueSpan((i + 1)..<close),
                                  suggestion: Suggestions.closest(to: name, in: declared.keys.sorted()))
                failed = true
            } else {
                seen.insert(name)
            }
            pieces.append(.param(name))
            i = close + 1
        }
        if !text.isEmpty { pieces.append(.text(String(decoding: text, as: UTF8.self))) }
        for name in declared.keys.sorted() where !seen.contains(name) {
            diagnostics.error(.routeUnusedParam,
                              "route declares param `\(name)` but its url never uses `{\(name)}`",
                              at: span)
            failed = true
        }
        let optional = Set(declared.compactMap { name, type in
            if case .optional = type { name } else { nil }
        })
        if !failed, !optional.isEmpty,
           !checkOptionalPlacement(pieces, optional: optional, source: scalar.value, span: span, diagnostics: &diagnostics) {
            failed = true
        }
        return failed ? nil : RouteTemplate(source: scalar.value, span: span, pieces: pieces, optional: optional)
    }

    /// Renders with percent-encoded values (RFC 3986: unreserved characters stay, every other
    /// byte of the value's UTF-8 becomes `%XX`). A missing value renders as empty text.
    public func render(_ values: [String: String]) -> String {
        render { values[$0] }
    }

    /// Renders with values looked up by route param name (nil: empty), percent-encoded.
    public func render(_ values: (String) -> String?) -> String {
        if !optional.isEmpty { return renderDroppingAbsent(values) }
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let t): out += t
            case .param(let name): out += RouteTemplate.percentEncode(values(name) ?? "")
            }
        }
        return out
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    public static func percentEncode(_ value: String) -> String {
        // Most values (ids, filters) need no escape: return them as they are.
        if value.utf8.allSatisfy(isUnreserved) { return value }
        let hex: [Character] = Array("0123456789ABCDEF")
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
