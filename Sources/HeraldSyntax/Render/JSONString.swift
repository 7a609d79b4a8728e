/// The one JSON string escaper: Herald's JSON writers (the contract's `JSON`, the
/// diagnostics' and schema's `JSONOutput`) all write string literals through it.
package enum JSONString {
    /// Appends `value` as a JSON string literal to `bytes` (UTF-8): quotes, backslashes,
    /// control characters, DEL and U+2028/U+2029 (line breaks to JavaScript) escaped;
    /// everything else written as is.
    package static func append(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy their bytes in one go when they are contiguous.
        let copied = value.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            if buffer.contains(where: mayNeedEscape) { return false }
            bytes.append(contentsOf: buffer)
            return true
        }
        if copied != true { appendEscaping(value, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A byte the escaping loop may change: `"`, `\\`, a control character, DEL, or the lead
    /// byte of U+2028/U+2029.
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
    }

    private static func appendEscaping(_ value: String, to bytes: inout [UInt8]) {
        let utf8 = value.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"", to: &bytes)
            case UInt8(ascii: "\\"): raw("\\\\", to: &bytes)
            case 0x0A: raw("\\n", to: &bytes)
            case 0x0D: raw("\\r", to: &bytes)
            case 0x09: raw("\\t", to: &bytes)
            case 0x08: raw("\\b", to: &bytes)
            case 0x0C: raw("\\f", to: &bytes)
            case 0x00 ..< 0x20, 0x7F: escaped(UInt32(byte), to: &bytes)
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                let second = utf8.index(after: index)
                if second != utf8.endIndex, utf8[second] == 0x80 {
                    let third = utf8.index(after: second)
                    if third != utf8.endIndex, utf8[third] == 0xA8 || utf8[third] == 0xA9 {
                        escaped(utf8[third] == 0xA8 ? 0x2028 : 0x2029, to: &bytes)
                        index = utf8.index(after: third)
                        continue
                    }
                }
                bytes.append(byte)
            default: bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
    }

    /// `value` as a JSON string literal.
    package static func literal(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func raw(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `\uXXXX`, lowercase hex.
    private static func escaped(_ scalar: UInt32, to bytes: inout [UInt8]) {
        raw("\\u", to: &bytes)
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)]) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
