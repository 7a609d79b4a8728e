internal import HeraldEngine
/// Why JSON text could not be read, with the 1-based line and column (in Unicode scalars)
/// where reading stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:col: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// Bounds that keep hostile input from exhausting the stack or memory.
public struct JSONLimits: Sendable, Equatable {
    /// Deepest nesting of arrays and objects.
    public var maxDepth: Int
    /// Largest accepted input, in bytes.
    public var maxBytes: Int

    public init(maxDepth: Int = 256, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    public static let standard = JSONLimits()
}

extension JSON {
    /// Reads one JSON value (RFC 8259) surrounded by optional whitespace.
    ///
    /// Strict: no comments, trailing commas, `NaN`, single quotes or leading zeros; duplicate
    /// object keys, lone surrogates, invalid UTF-8 and numbers beyond `Double`'s range are
    /// errors. Never traps on any input.
    ///
    /// - Throws: `JSONParseError` at the first problem.
    public static func parse(_ text: String, limits: JSONLimits = .standard) throws(JSONParseError) -> JSON {
        try parse(bytes: Array(text.utf8), limits: limits)
    }

    /// Reads one JSON value from UTF-8 bytes; see `parse(_:limits:)`.
    public static func parse(bytes: some Collection<UInt8>, limits: JSONLimits = .standard) throws(JSONParseError) -> JSON {
        let array = Array(bytes)
        var result: Result<JSON, JSONParseError> = .success(.null)
        array.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                result = .success(try parse(buffer: buffer, limits: limits))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    private static func parse(buffer bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes: bytes, limits: limits)
        if bytes.count > limits.maxBytes {
            throw JSONParseError(line: 1, column: 1, message: "input is \(bytes.count) bytes, more than the limit of \(limits.maxBytes)")
        }
        try parser.validateUTF8()
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the value")
        }
        return value
    }
}

private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    // MARK: Positions

    /// Line and column of `offset`, computed only when an error is reported so the happy
    /// path does no bookkeeping. Columns count Unicode scalars (UTF-8 lead bytes).
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            let byte = bytes[i]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let (line, column) = position(of: offset ?? index)
        return JSONParseError(line: line, column: column, message: message)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: UTF-8

    /// Rejects malformed UTF-8 up front (overlongs, surrogates, > U+10FFFF, truncation) so
    /// every later `String(decoding:)` is lossless.
    func validateUTF8() throws(JSONParseError) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: throw error("invalid UTF-8", at: i)
            }
            guard i + length <= n else { throw error("invalid UTF-8", at: i) }
            let b1 = bytes[i + 1]
            guard b1 >= low && b1 <= high else { throw error("invalid UTF-8", at: i) }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 {
                throw error("invalid UTF-8", at: i)
            }
            i += length
        }
    }

    // MARK: Grammar

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw error("expected a value, got end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value, got \(describeCurrent())")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let length = word.utf8CodeUnitCount
        var k = 0
        while k < length {
            guard index < bytes.count, bytes[index] == word.utf8Start[k] else {
                throw error("expected `\(word)`", at: start)
            }
            index += 1
            k += 1
        }
    }

    mutating func checkDepth(_ depth: Int) throws(JSONParseError) {
        if depth > limits.maxDepth {
            throw error("nesting deeper than \(limits.maxDepth) levels")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
        try checkDepth(depth)
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected `,` or `]`, got end of input") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected `,` or `]`, got \(describeCurrent())")
            }
        }
    }

    /// Members an object's duplicate keys are looked for by scanning (`parseObject`).
    static let scannedKeys = 16

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
        try checkDepth(depth)
        index += 1
        var members: [JSON.Member] = []
        // Duplicate keys: a scan of the keys so far while the object is small (a request's
        // objects have a handful: no hashing, no allocation), a set once it has
        // `Self.scannedKeys` (a huge object stays linear).
        var seen: Set<String>?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key, got \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            let duplicate: Bool
            if seen != nil {
                duplicate = !seen!.insert(key).inserted
            } else if members.count < Self.scannedKeys {
                duplicate = members.contains { $0.key == key }
            } else {
                var keys = Set(members.lazy.map(\.key))
                duplicate = !keys.insert(key).inserted
                seen = keys
            }
            guard !duplicate else {
                throw error("duplicate key `\(key)`", at: keyStart)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected `:` after key, got \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            members.append(JSON.Member(key, try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected `,` or `}`, got end of input") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected `,` or `}`, got \(describeCurrent())")
            }
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var runStart = index
        var result: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                // Most strings have no escapes: decode them straight from the input.
                if result.isEmpty && runStart == start + 1 { return String(decoding: run, as: UTF8.self) }
                result.append(contentsOf: run)
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try parseEscape(into: &result)
                runStart = index
            case 0x00..<0x20:
                throw error("control character in string (escape it)")
            default:
                index += 1
            }
        }
    }

    mutating func parseEscape(into result: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): result.append(0x22)
        case UInt8(ascii: "\\"): result.append(0x5C)
        case UInt8(ascii: "/"): result.append(0x2F)
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "f"): result.append(0x0C)
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "r"): result.append(0x0D)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: start)
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone surrogate `\\u\(String(scalar, radix: 16, uppercase: true))`", at: start)
                }
                let lowStart = index
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("lone surrogate `\\u\(String(scalar, radix: 16, uppercase: true))`", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone surrogate `\\u\(String(scalar, radix: 16, uppercase: true))`", at: start)
            }
            // Valid by construction: surrogates were paired or rejected above.
            let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            result.append(contentsOf: UTF8.encode(value)!)
        default:
            throw error("invalid escape in string", at: start)
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        // `index` is just after `\u`.
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("incomplete `\\u` escape", at: escapeStart) }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("incomplete `\\u` escape", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in number", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after `.`") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else {
            throw error("number `\(text)` is out of range", at: start)
        }
        return .double(double)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
