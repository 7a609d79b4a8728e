import HeraldSyntax

/// The keys of one checked mapping: lookup by key, with each key's span.
struct Fields {
    let pairs: [YAMLPair]
    /// The mapping node itself.
    let node: YAMLNode

    subscript(key: String) -> YAMLNode? {
        pairs.first { $0.key.value == key }?.value
    }

    func has(_ key: String) -> Bool { pairs.contains { $0.key.value == key } }

    /// Where each key is written (the key, not its value), by `prefix` + key: what a
    /// decision's trace cites.
    func keySpans(prefix: String = "") -> [String: SourceSpan] {
        var spans: [String: SourceSpan] = [:]
        for pair in pairs where spans[prefix + pair.key.value] == nil { spans[prefix + pair.key.value] = pair.key.span }
        return spans
    }

    /// Where a list entry (a cap, a rule) is named, which diagnostics and a decision's trace
    /// cite: its `id` value, else its first key (the mapping itself when it has none), never
    /// the `{` of a flow mapping.
    var entrySpan: SourceSpan {
        self["id"]?.span ?? pairs.first?.key.span ?? node.span
    }
}

/// Reads YAML nodes as Herald values, appending a diagnostic for every problem and returning
/// nil for a value it could not read. Never throws, never traps.
struct NodeReader {
    var diagnostics = Diagnostics()

    // MARK: Shapes

    /// The node as a mapping whose keys are checked against `place` (unknown → H0201, missing
    /// required → H0204 at `owner`, the entry's name, when given).
    mutating func fields(_ node: YAMLNode, _ place: LanguageKeys.Place, owner: String? = nil, ownerSpan: SourceSpan? = nil,
                         extraKeys: Set<String> = [], checkRequired: Bool = true) -> Fields? {
        guard let pairs = mapping(node, what: place.noun) else { return nil }
        let valid = place.keys + extraKeys.sorted()
        var suggested: Set<String> = []
        for pair in pairs where !place.keys.contains(pair.key.value) && !extraKeys.contains(pair.key.value) {
            let suggestion = Suggestions.closest(to: pair.key.value, in: valid)
            if let suggestion { suggested.insert(suggestion) }
            diagnostics.error(.unknownKey, "unknown key `\(pair.key.value)` in \(Self.place(place, owner))",
                              at: pair.key.span, suggestion: suggestion)
        }
        if checkRequired {
            // A misspelt required key is reported once, as the unknown key.
            for key in place.required where !pairs.contains(where: { $0.key.value == key }) && !suggested.contains(key) {
                diagnostics.error(.missingKey, "missing required key `\(key)` in \(Self.place(place, owner))",
                                  at: ownerSpan ?? node.span)
            }
        }
        return Fields(pairs: pairs, node: node)
    }

    /// The node's pairs; an empty list for null (`types:` with nothing under it).
    mutating func mapping(_ node: YAMLNode, what: @autoclosure () -> String) -> [YAMLPair]? {
        if node.isNull { return [] }
        guard let pairs = node.mapping else {
            diagnostics.error(.wrongShape, "expected a mapping for \(what()), found \(node.shapeDescription)", at: node.span)
            return nil
        }
        return pairs
    }

    /// The node's items; an empty list for null.
    mutating func sequence(_ node: YAMLNode, what: @autoclosure () -> String) -> [YAMLNode]? {
        if node.isNull { return [] }
        guard let items = node.sequence else {
            diagnostics.error(.wrongShape, "expected a list for \(what()), found \(node.shapeDescription)", at: node.span)
            return nil
        }
        return items
    }

    /// The node's scalar (H0202 for a list or mapping).
    mutating func scalar(_ node: YAMLNode, what: @autoclosure () -> String) -> YAMLScalar? {
        guard let s = node.scalar else {
            diagnostics.error(.wrongShape, "expected a scalar for \(what()), found \(node.shapeDescription)", at: node.span)
            return nil
        }
        return s
    }

    // MARK: Scalars

    mutating func string(_ node: YAMLNode, what: @autoclosure () -> String) -> String? {
        scalar(node, what: what())?.value
    }

    mutating func bool(_ node: YAMLNode, what: @autoclosure () -> String) -> Bool? {
        guard let s = scalar(node, what: what()) else { return nil }
        if s.style == .plain, s.value == "true" { return true }
        if s.style == .plain, s.value == "false" { return false }
        diagnostics.error(.invalidScalar, "expected `true` or `false` for \(what()), found `\(s.value)`", at: node.span)
        return nil
    }

    mutating func int(_ node: YAMLNode, what: @autoclosure () -> String) -> Int? {
        guard let s = scalar(node, what: what()) else { return nil }
        if s.style == .plain, let n = Self.parseInt(s.value) { return n }
        diagnostics.error(.invalidScalar, "expected an int for \(what()), found `\(s.value)`", at: node.span)
        return nil
    }

    /// Seconds. Negative durations (`-48h`) only where `signed`.
    mutating func duration(_ node: YAMLNode, what: @autoclosure () -> String, signed: Bool = false) -> Int? {
        guard let s = scalar(node, what: what()) else { return nil }
        if let seconds = Self.parseDuration(s.value, signed: signed) { return seconds }
        diagnostics.error(.invalidDuration, "invalid duration `\(s.value)` for \(what()); write digits and units `s m h d w`, as in `15m`, `48h`, `1h30m`",
                          at: node.span)
        return nil
    }

    /// Seconds since midnight.
    mutating func timeOfDay(_ node: YAMLNode, what: @autoclosure () -> String) -> Int? {
        guard let s = scalar(node, what: what()) else { return nil }
        if let seconds = Self.parseTimeOfDay(s.value) { return seconds }
        diagnostics.error(.invalidTimeOfDay, "invalid time of day `\(s.value)` for \(what()); write `HH:MM` on a 24-hour clock, quoted, as in `\"19:00\"`",
                          at: node.span)
        return nil
    }

    /// One of `allowed` (H0205 with "did you mean" otherwise).
    mutating func word(_ node: YAMLNode, what: @autoclosure () -> String, allowed: [String]) -> String? {
        guard let s = scalar(node, what: what()) else { return nil }
        if allowed.contains(s.value) { return s.value }
        diagnostics.error(.invalidEnumValue,
                          "invalid value `\(s.value)` for \(what()); expected \(Self.list(allowed))",
                          at: node.span, suggestion: Suggestions.closest(to: s.value, in: allowed))
        return nil
    }

    mutating func enumValue<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, what: @autoclosure () -> String, as: E.Type) -> E? where E.RawValue == String {
        word(node, what: what(), allowed: E.allCases.map(\.rawValue)).flatMap { E(rawValue: $0) }
    }

    /// A list of names, each with its span.
    mutating func names(_ node: YAMLNode, what: @autoclosure () -> String) -> [(name: String, span: SourceSpan)]? {
        guard let items = sequence(node, what: what()) else { return nil }
        var result: [(String, SourceSpan)] = []
        for item in items {
            if let s = scalar(item, what: "an entry of \(what())") { result.append((s.value, item.span)) }
        }
        return result
    }

    /// An entry name: letters, digits, `_`, `-`, `.` (H0210 otherwise).
    mutating func checkIdentifier(_ name: String, at span: SourceSpan, what: String) {
        if !Self.isIdentifier(name) {
            diagnostics.error(.invalidIdentifier, "invalid \(what) name `\(name)`; use letters, digits, `_`, `-` and `.`", at: span)
        }
    }

    /// A name expressions can use (`params.<name>`, `state.<name>`): a letter or `_`, then
    /// letters, digits and `_`.
    mutating func checkFieldName(_ name: String, at span: SourceSpan, what: String) {
        if !Self.isFieldName(name) {
            diagnostics.error(.invalidIdentifier, "invalid \(what) name `\(name)`; use a letter or `_`, then letters, digits and `_`", at: span)
        }
    }

    /// "a type", or "type `daily`" when the entry's name is known.
    static func place(_ place: LanguageKeys.Place, _ owner: String?) -> String {
        guard let owner else { return place.noun }
        var noun = Substring(place.noun)
        if noun.hasPrefix("a ") { noun = noun.dropFirst(2) } else if noun.hasPrefix("an ") { noun = noun.dropFirst(3) }
        return "\(noun) `\(owner)`"
    }

    // MARK: Parsing (pure)

    static func parseInt(_ text: String) -> Int? {
        PlainValue.integer(text)
    }

    /// `30s`, `15m`, `48h`, `7d`, `2w`, `1h30m`; units in any order but each at most once.
    static func parseDuration(_ text: String, signed: Bool = false) -> Int? {
        var rest = Substring(text)
        var sign = 1
        if rest.first == "-" {
            guard signed else { return nil }
            sign = -1
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var total = 0
        var seen = Set<Character>()
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let n = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first, !seen.contains(unit) else { return nil }
            seen.insert(unit)
            rest = rest.dropFirst()
            let scale: Int
            switch unit {
            case "s": scale = 1
            case "m": scale = 60
            case "h": scale = 3600
            case "d": scale = 86_400
            case "w": scale = 604_800
            default: return nil
            }
            total += n * scale
        }
        return sign * total
    }

    /// `HH:MM`, 00:00 to 23:59 → seconds since midnight.
    static func parseTimeOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
        return h * 3600 + m * 60
    }

    /// ASCII letters (the only alphabetic ASCII scalars).
    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
    }

    static func isIdentifier(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    static func isFieldName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// `a`, `b` or `c`, in backticks.
    static func list(_ words: [String]) -> String {
        let quoted = words.map { "`\($0)`" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    /// `name(argument)` → (name, argument, offset of the argument in the text).
    static func call(_ text: String) -> (name: String, argument: String, offset: Int)? {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
        let name = String(text[..<open]).trimmingSpaces
        let argumentStart = text.index(after: open)
        let argumentEnd = text.index(before: text.endIndex)
        guard argumentStart <= argumentEnd else { return nil }
        let raw = text[argumentStart..<argumentEnd]
        let leading = raw.prefix { $0 == " " }.utf8.count
        let offset = text.utf8.distance(from: text.startIndex, to: argumentStart) + leading
        return (name, String(raw).trimmingSpaces, offset)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
