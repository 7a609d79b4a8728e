internal import HeraldEngine
import HeraldSyntax

extension JSON {
    /// The value as JSON text with object keys sorted by their UTF-8 bytes, so equal values
    /// always give identical bytes whatever order they were built in.
    ///
    /// - Parameter pretty: two-space indentation and `": "` separators instead of compact output.
    /// - Returns: the text, without a trailing newline.
    /// - Note: a non-finite `double` (which the parser never produces) is written as `null`.
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, indent: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Appends UTF-8 bytes directly, avoiding intermediate strings per value.
///
/// Besides writing a `JSON` tree, it writes compact objects member by member for types that
/// write themselves without building a tree (`Decision.compactJSON()`, a request's hot path):
/// `objectStart()`, then `member(_:_:)` / `key(_:)` + a value in the byte order of the keys
/// (the order `serialized()` gives), then `objectEnd()`.
struct JSONWriter {
    let pretty: Bool
    var bytes: [UInt8] = []
    /// Whether the next member or element of the object or array being written needs a comma.
    private var needsComma = false

    init(pretty: Bool, capacity: Int = 256) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// The bytes written, as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Member by member (compact only)

    mutating func objectStart() { open(UInt8(ascii: "{")) }
    mutating func objectEnd() { close(UInt8(ascii: "}")) }
    mutating func arrayStart() { open(UInt8(ascii: "[")) }
    mutating func arrayEnd() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// A member's key; its value follows.
    mutating func key(_ key: String) {
        separate()
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member with a string value.
    mutating func member(_ key: String, _ value: String) {
        self.key(key)
        writeString(value)
        needsComma = true
    }

    /// A member with a string value when there is one.
    mutating func member(_ key: String, _ value: String?) {
        if let value { member(key, value) }
    }

    /// A value (a member's after `key(_:)`, or an array's element), written as a tree.
    mutating func value(_ value: JSON) {
        separate()
        write(value, indent: 0)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    mutating func write(_ value: JSON, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): append(String(i))
        case .double(let d): append(Self.format(d))
        case .string(let s): writeString(s)
        case .array(let elements):
            if elements.isEmpty { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            // Keys are written in byte order. Objects are mostly built in that order already:
            // check first, and when they are not, sort positions rather than members (a member
            // move copies its key and value).
            let order: [Int]? = Self.inKeyOrder(members) ? nil
                : members.indices.sorted { members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8) }
            for index in members.indices {
                let member = members[order?[index] ?? index]
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// True when each key precedes the next in byte order.
    private static func inKeyOrder(_ members: [JSON.Member]) -> Bool {
        var index = members.startIndex + 1
        while index < members.endIndex {
            if !members[index - 1].key.utf8.lexicographicallyPrecedes(members[index].key.utf8) { return false }
            index += 1
        }
        return true
    }

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    private mutating func writeString(_ s: String) {
        JSONString.append(s, to: &bytes)
    }

    /// Swift's shortest round-trip representation, which is already valid JSON for finite
    /// values (`0.1`, `1e-05`, `1e+20`, `-0.0`).
    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        return d.description
    }
}
