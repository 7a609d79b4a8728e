/// A token of the expression language.
public struct ExpressionToken: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Also the keywords `in`, `true`, `false`, which the parser recognises by position.
        case identifier(String)
        case int(Int)
        case string(String)
        /// Seconds.
        case duration(Int)
        case leftParen, rightParen, leftBracket, rightBracket, comma, dot
        case question, colon, questionQuestion
        case or, and, bang
        case equal, notEqual, less, lessEqual, greater, greaterEqual
        case plus, minus, star, slash, percent
        case end
    }

    public var kind: Kind
    /// UTF-8 offsets into the expression text.
    public var range: Range<Int>

    public init(_ kind: Kind, range: Range<Int>) {
        self.kind = kind
        self.range = range
    }

    /// How the token reads in messages: `)`, `state`, `'text'`, end of the expression.
    public var spelling: String {
        switch kind {
        case .identifier(let s): "`\(s)`"
        case .int(let n): "`\(n)`"
        case .string(let s): "`'\(s)'`"
        case .duration: "a duration"
        case .leftParen: "`(`"
        case .rightParen: "`)`"
        case .leftBracket: "`[`"
        case .rightBracket: "`]`"
        case .comma: "`,`"
        case .dot: "`.`"
        case .question: "`?`"
        case .colon: "`:`"
        case .questionQuestion: "`??`"
        case .or: "`||`"
        case .and: "`&&`"
        case .bang: "`!`"
        case .equal: "`==`"
        case .notEqual: "`!=`"
        case .less: "`<`"
        case .lessEqual: "`<=`"
        case .greater: "`>`"
        case .greaterEqual: "`>=`"
        case .plus: "`+`"
        case .minus: "`-`"
        case .star: "`*`"
        case .slash: "`/`"
        case .percent: "`%`"
        case .end: "the end of the expression"
        }
    }
}

/// Splits expression text into tokens, collecting every lexical error.
///
/// Durations are digits and a unit, repeated with units in decreasing size and each unit at
/// most once: `30s`, `15m`, `48h`, `7d`, `2w`, `1h30m`. Strings use `'…'` or `"…"`; a
/// backslash escapes `\\`, `\'` and `\"`. The first argument of `sent(` may be a bare
/// notification name containing `-` and `.` (`sent(N-MAINT-DUE-TODAY, day)`), lexed as one
/// identifier.
public enum ExpressionLexer {
    public static func tokenize(_ text: String) -> (tokens: [ExpressionToken], errors: [ExpressionSyntaxError]) {
        let bytes = Array(text.utf8)
        var tokens: [ExpressionToken] = []
        var errors: [ExpressionSyntaxError] = []
        var i = 0
        let n = bytes.count

        func isIdentStart(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func isIdentPart(_ b: UInt8) -> Bool { isIdentStart(b) || isDigit(b) }
        func slice(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }

        while i < n {
            let b = bytes[i]
            let start = i
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1; continue }

            // A bare `sent(` target: letters, digits, `_`, `-`, `.`.
            if isIdentPart(b), tokens.count >= 2, tokens[tokens.count - 1].kind == .leftParen,
               tokens[tokens.count - 2].kind == .identifier("sent") {
                while i < n, isIdentPart(bytes[i]) || bytes[i] == 0x2D || bytes[i] == 0x2E { i += 1 }
                tokens.append(ExpressionToken(.identifier(slice(start..<i)), range: start..<i))
                continue
            }
            if isIdentStart(b) {
                while i < n, isIdentPart(bytes[i]) { i += 1 }
                tokens.append(ExpressionToken(.identifier(slice(start..<i)), range: start..<i))
                continue
            }
            if isDigit(b) {
                while i < n, isIdentPart(bytes[i]) { i += 1 }
                let word = Array(bytes[start..<i])
                if word.allSatisfy(isDigit) {
                    if let value = Int(slice(start..<i)) {
                        tokens.append(ExpressionToken(.int(value), range: start..<i))
                    } else {
                        errors.append(.init(.exprInvalidNumber, "number `\(slice(start..<i))` is too large", range: start..<i))
                    }
                } else if let seconds = parseDuration(word) {
                    tokens.append(ExpressionToken(.duration(seconds), range: start..<i))
                } else {
                    errors.append(.init(
                        .exprInvalidNumber,
                        "invalid duration `\(slice(start..<i))`: write numbers with units `w`, `d`, `h`, `m`, `s`, largest first (`1h30m`)",
                        range: start..<i))
                }
                continue
            }
            if b == 0x27 || b == 0x22 {  // ' or "
                let quote = b
                i += 1
                var value: [UInt8] = []
                var closed = false
                while i < n {
                    let c = bytes[i]
                    if c == quote { closed = true; i += 1; break }
                    if c == 0x5C, i + 1 < n, bytes[i + 1] == 0x5C || bytes[i + 1] == 0x27 || bytes[i + 1] == 0x22 {
                        value.append(bytes[i + 1])
                        i += 2
                        continue
                    }
                    value.append(c)
                    i += 1
                }
                if closed {
                    tokens.append(ExpressionToken(.string(String(decoding: value, as: UTF8.self)), range: start..<i))
                } else {
                    let q = quote == 0x27 ? "'" : "\""
                    errors.append(.init(.exprUnterminatedString, "string has no closing `\(q)`", range: start..<i))
                }
                continue
            }
            let next: UInt8? = i + 1 < n ? bytes[i + 1] : nil
            var kind: ExpressionToken.Kind?
            var length = 1
            switch b {
            case 0x28: kind = .leftParen
            case 0x29: kind = .rightParen
            case 0x5B: kind = .leftBracket
            case 0x5D: kind = .rightBracket
            case 0x2C: kind = .comma
            case 0x2E: kind = .dot
            case 0x3A: kind = .colon
            case 0x2B: kind = .plus
            case 0x2D: kind = .minus
            case 0x2A: kind = .star
            case 0x2F: kind = .slash
            case 0x25: kind = .percent
            case 0x3F: if next == 0x3F { kind = .questionQuestion; length = 2 } else { kind = .question }
            case 0x21: if next == 0x3D { kind = .notEqual; length = 2 } else { kind = .bang }
            case 0x3C: if next == 0x3D { kind = .lessEqual; length = 2 } else { kind = .less }
            case 0x3E: if next == 0x3D { kind = .greaterEqual; length = 2 } else { kind = .greater }
            case 0x3D: if next == 0x3D { kind = .equal; length = 2 }
            case 0x26: if next == 0x26 { kind = .and; length = 2 }
            case 0x7C: if next == 0x7C { kind = .or; length = 2 }
            default: break
            }
            if let kind {
                tokens.append(ExpressionToken(kind, range: start..<(start + length)))
                i += length
                continue
            }
            // One whole UTF-8 scalar, so the message shows a real character.
            var end = i + 1
            while end < n, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let character = slice(start..<end)
            let suggestion: String? = switch b {
            case 0x3D: "=="
            case 0x26: "&&"
            case 0x7C: "||"
            default: nil
            }
            let message = suggestion.map { "unexpected character `\(character)`; did you mean `\($0)`?" }
                ?? "unexpected character `\(character)`"
            errors.append(.init(.exprUnexpectedCharacter, message, range: start..<end, suggestion: suggestion))
            i = end
        }
        tokens.append(ExpressionToken(.end, range: n..<n))
        return (tokens, errors)
    }

    /// Seconds of a duration literal, or nil when malformed or out of range.
    static func parseDuration(_ word: [UInt8]) -> Int? {
        let units: [(UInt8, Int)] = [(0x77, 604_800), (0x64, 86_400), (0x68, 3_600), (0x6D, 60), (0x73, 1)]
        var total = 0
        var nextUnit = 0  // index into units: units must decrease
        var i = 0
        while i < word.count {
            var number = 0
            let digitsStart = i
            while i < word.count, word[i] >= 0x30, word[i] <= 0x39 {
                let (m, o1) = number.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int(word[i] - 0x30))
                if o1 || o2 { return nil }
                number = a
                i += 1
            }
            guard i > digitsStart, i < word.count else { return nil }
            guard let index = units[nextUnit...].firstIndex(where: { $0.0 == word[i] }) else { return nil }
            let (part, o3) = number.multipliedReportingOverflow(by: units[index].1)
            let (sum, o4) = total.addingReportingOverflow(part)
            if o3 || o4 { return nil }
            total = sum
            nextUnit = index + 1
            i += 1
        }
        return total
    }
}
