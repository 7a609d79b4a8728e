import HeraldSyntax

/// A parsed piece of a copy template.
indirect enum TemplatePart: Sendable, Hashable {
    case text(String)
    /// `{name}`
    case value(String)
    /// `#` inside a plural branch: the number.
    case number
    case plural(name: String, branches: [Branch])
    case select(name: String, branches: [Branch])
    /// `{name, time[, style]}` or `{name, date[, style]}`: an instant in the user's zone, or a
    /// local time or date (`TemplateFormat`).
    case format(name: String, style: TemplateFormat)

    struct Branch: Sendable, Hashable {
        var selector: String
        var parts: [TemplatePart]
        /// `N` of an `=N` selector, resolved once so rendering compares integers.
        var exact: Int?

        init(selector: String, parts: [TemplatePart]) {
            self.selector = selector
            self.parts = parts
            exact = selector.hasPrefix("=") ? Int(selector.dropFirst()) : nil
        }
    }

    static func collect(_ parts: [TemplatePart], into names: inout [String]) {
        for part in parts {
            switch part {
            case .text, .number: break
            case .value(let n), .format(let n, _):
                if !names.contains(n) { names.append(n) }
            case .plural(let n, let branches), .select(let n, let branches):
                if !names.contains(n) { names.append(n) }
                for b in branches { collect(b.parts, into: &names) }
            }
        }
    }

    /// How a value reads in copy.
    static func text(of value: Value?) -> String {
        guard let value else { return "" }
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .string(let s): return s
        case .duration(let s): return String(s) + "s"
        case .instant(let t): return CalendarText.instant(t)
        case .time(let s): return CalendarText.pad(s / 3600) + ":" + CalendarText.pad(s % 3600 / 60)
        case .date(let d): return CalendarText.date(d)
        case .weekday(let w): return ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][max(0, min(6, w - 1))]
        case .list(let items): return items.map { text(of: $0) }.joined(separator: ", ")
        // No template shows a map (H0272, H0275): its entries by key, for completeness.
        case .map(let entries): return entries.keys.sorted().map { "\($0): \(text(of: entries[$0]))" }.joined(separator: ", ")
        case .null: return ""
        }
    }
}

/// ISO 8601 text for instants and dates, without Foundation (the engine's zone-aware
/// rendering lives in HeraldEngine; copy shows UTC unless a param is pre-formatted).
enum CalendarText {
    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func date(_ days: Int) -> String {
        let (y, m, d) = civil(days)
        return "\(y)-\(pad(m))-\(pad(d))"
    }

    static func instant(_ t: Int) -> String { InstantText.rfc3339(t, offsetSeconds: 0) }
}

/// A recursive-descent parser over the scalar's UTF-8. Nesting is bounded by the scalar's
/// length (each level consumes at least `{`), and YAML scalars are bounded by the reader.
struct TemplateParser {
    let scalar: YAMLScalar
    let bytes: [UInt8]
    let allowed: [String: ValueType]
    /// Names that are refused with their own diagnostic rather than `H0421` (a group's
    /// `{first.<param>}` that not every held type declares alike: H0297, H0298).
    var refused: [String: (code: DiagnosticCode, message: String)] = [:]
    var i = 0
    var diagnostics = Diagnostics()
    var failed = false
    var depth = 0
    static let maxDepth = 16
    static let pluralKeywords: Set<String> = ["zero", "one", "two", "few", "many", "other"]

    init(scalar: YAMLScalar, allowed: [String: ValueType]) {
        self.scalar = scalar
        self.bytes = Array(scalar.value.utf8)
        self.allowed = allowed
    }

    static func isNameScalar(_ s: Unicode.Scalar) -> Bool {
        s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" || s == "-" || s == "."
    }

    func span(_ range: Range<Int>) -> SourceSpan { scalar.span(ofValueRange: range) }

    mutating func fail(_ code: DiagnosticCode, _ message: String, _ range: Range<Int>, suggestion: String? = nil) {
        diagnostics.error(code, message, at: span(range), suggestion: suggestion)
        failed = true
    }

    /// Stops parsing after a syntax error: one clear message beats a cascade.
    mutating func abort(_ message: String, _ range: Range<Int>) {
        fail(.templateSyntax, message, range)
        i = bytes.count
    }

    mutating func parseMessage(inPlural: Bool, nested: Bool) -> [TemplatePart] {
        var parts: [TemplatePart] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))); text = [] }
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "}"):
                if nested { flush(); return parts }
                abort("unmatched `}`; write `'}'` for a literal brace", i..<(i + 1))
            case UInt8(ascii: "'"):
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "'") {
                    text.append(b); i += 2
                } else if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "{") || bytes[i + 1] == UInt8(ascii: "}") || (inPlural && bytes[i + 1] == UInt8(ascii: "#")) {
                    i += 1
                    while i < bytes.count {
                        if bytes[i] == UInt8(ascii: "'") {
                            if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "'") { text.append(b); i += 2; continue }
                            i += 1
                            break
                        }
                        text.append(bytes[i]); i += 1
                    }
                } else {
                    text.append(b); i += 1
                }
            case UInt8(ascii: "#") where inPlural:
                flush(); parts.append(.number); i += 1
            case UInt8(ascii: "{"):
                flush()
                if let part = parseArgument(inPlural: inPlural) { parts.append(part) }
            default:
                text.append(b); i += 1
            }
        }
        flush()
        return parts
    }

    mutating func skipSpaces() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
    }

    /// A name or selector; `dotted`: a placeholder's name, which may have dots (`first.name`).
    mutating func readWord(dotted: Bool = false) -> Range<Int> {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            let isWord = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: "=") || b >= 0x80
                || (dotted && b == UInt8(ascii: ".") && i > start && i + 1 < bytes.count && Self.isLetter(bytes[i + 1]))
            guard isWord else { break }
            i += 1
        }
        return start..<i
    }

    static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") }

    func word(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }

    /// At `{`: `{name}` or `{name, plural|select, selector {message} … }`.
    mutating func parseArgument(inPlural: Bool) -> TemplatePart? {
        let open = i
        i += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            abort("placeholders nest deeper than \(Self.maxDepth) levels", open..<(open + 1))
            return nil
        }
        skipSpaces()
        let nameRange = readWord(dotted: true)
        let name = word(nameRange)
        skipSpaces()
        guard !name.isEmpty else {
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                abort("empty placeholder `{}`; name a param, or write `'{}'` for literal braces", open..<(i + 1))
            } else {
                abort("expected a param name after `{`", open..<min(bytes.count, open + 1))
            }
            return nil
        }
        guard i < bytes.count else {
            abort("unclosed `{` of placeholder `\(name)`; add `}`", open..<(open + 1))
            return nil
        }
        let type = allowed[name]
        if bytes[i] == UInt8(ascii: "}") {
            i += 1
            checkKnown(name, nameRange)
            return .value(name)
        }
        guard bytes[i] == UInt8(ascii: ",") else {
            abort("expected `}` or `,` after placeholder `\(name)`", i..<(i + 1))
            return nil
        }
        i += 1
        skipSpaces()
        let kindRange = readWord()
        let kind = word(kindRange)
        if kind == "time" || kind == "date" {
            return parseFormat(name: name, nameRange: nameRange, kind: kind, open: open)
        }
        guard kind == "plural" || kind == "select" else {
            fail(.templateUnsupportedArgument,
                 kind.isEmpty ? "expected `plural`, `select`, `time` or `date` after `\(name),`" : "`{\(name), \(kind)}` is not supported; Herald copy knows `plural`, `select`, `time` and `date` (format numbers before passing them as params)",
                 kind.isEmpty ? (i..<min(bytes.count, i + 1)) : kindRange)
            i = bytes.count
            return nil
        }
        let isPlural = kind == "plural"
        checkKnown(name, nameRange)
        if let type {
            switch (isPlural, type.unwrapped) {
            case (true, .int): break
            case (false, .string), (false, .enumeration), (false, .bool): break
            default:
                fail(.templateArgumentType,
                     isPlural ? "`plural` needs an int, but `\(name)` is \(type)" : "`select` needs a string, enum or bool, but `\(name)` is \(type)",
                     nameRange)
            }
        }
        skipSpaces()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else {
            abort("expected `,` and the branches after `\(name), \(kind)`", i..<min(bytes.count, i + 1))
            return nil
        }
        i += 1
        var branches: [TemplatePart.Branch] = []
        var seen: Set<String> = []
        while true {
            skipSpaces()
            guard i < bytes.count else {
                abort("unclosed `{` of `\(name), \(kind)`; add `}`", open..<(open + 1))
                return nil
            }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            let selectorRange = readWord()
            let selector = word(selectorRange)
            guard !selector.isEmpty else {
                abort("expected a selector (such as `one`, `other`) in `\(name), \(kind)`", i..<(i + 1))
                return nil
            }
            if isPlural {
                let exact = selector.hasPrefix("=") && selector.count > 1 && selector.dropFirst().allSatisfy(\.isNumber)
                if !exact && !Self.pluralKeywords.contains(selector) {
                    fail(.templateBadSelector, "`\(selector)` is not a plural selector; use `=N`, `zero`, `one`, `two`, `few`, `many` or `other`",
                         selectorRange, suggestion: Suggestions.closest(to: selector, in: Self.pluralKeywords.sorted()))
                }
            }
            if seen.contains(selector) {
                fail(.templateBadSelector, "selector `\(selector)` appears twice in `\(name), \(kind)`", selectorRange)
            }
            seen.insert(selector)
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else {
                abort("expected `{` after selector `\(selector)`", selectorRange)
                return nil
            }
            let branchOpen = i
            i += 1
            let parts = parseMessage(inPlural: isPlural || inPlural, nested: true)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else {
                if !failed { abort("unclosed `{` of branch `\(selector)`; add `}`", branchOpen..<(branchOpen + 1)) }
                return nil
            }
            i += 1
            branches.append(.init(selector: selector, parts: parts))
        }
        if !seen.contains("other") {
            fail(.templateMissingOther, "`{\(name), \(kind), …}` has no `other` branch; add `other {…}`", open..<i)
        }
        return isPlural ? .plural(name: name, branches: branches) : .select(name: name, branches: branches)
    }

    /// After `{name, time` or `{name, date`: an optional `, style`, then `}`. The value must be
    /// an instant (shown in the user's zone) or a local time (`time`) or date (`date`).
    mutating func parseFormat(name: String, nameRange: Range<Int>, kind: String, open: Int) -> TemplatePart? {
        let isTime = kind == "time"
        let styles = isTime ? TemplateFormat.timeStyles : TemplateFormat.dateStyles
        var style = styles[0].1
        skipSpaces()
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
            i += 1
            skipSpaces()
            let styleRange = readWord()
            let written = word(styleRange)
            if let known = styles.first(where: { $0.0 == written }) {
                style = known.1
            } else {
                let names = styles.map(\.0)
                fail(.templateFormatStyle,
                     written.isEmpty ? "expected a `\(kind)` style after `\(name), \(kind),`: \(NodeReader.list(names))"
                         : "`\(written)` is not a `\(kind)` style; expected \(NodeReader.list(names))",
                     written.isEmpty ? (i..<min(bytes.count, i + 1)) : styleRange,
                     suggestion: Suggestions.closest(to: written, in: names))
            }
            skipSpaces()
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else {
            abort("expected `}` to close `{\(name), \(kind)…`", open..<min(bytes.count, max(open + 1, i)))
            return nil
        }
        i += 1
        checkKnown(name, nameRange)
        if let type = allowed[name] {
            switch (isTime, type.unwrapped) {
            case (_, .instant), (true, .time), (false, .date): break
            default:
                fail(.templateFormatType,
                     "`{\(name), \(kind)}` needs an instant or a \(kind), but `\(name)` is \(type)", nameRange)
            }
        }
        return .format(name: name, style: style)
    }

    mutating func checkKnown(_ name: String, _ range: Range<Int>) {
        guard allowed[name] == nil else { return }
        if let refusal = refused[name] { return fail(refusal.code, refusal.message, range) }
        fail(.templateUnknownPlaceholder,
             "`{\(name)}` is not a declared param; declare it in `params` or fix the name",
             range, suggestion: Suggestions.closest(to: name, in: allowed.keys.sorted()))
    }
}
