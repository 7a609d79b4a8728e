public import HeraldPolicy

/// Run-time values drawn from the fuzz input's bytes, so the fuzzer steers them too. When the
/// bytes run out every draw is 0 (deterministic: the same input always gives the same values).
public struct ValueSource {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// Mostly small numbers, sometimes the extremes (overflow is defined behaviour in the
    /// language: arithmetic wraps).
    public mutating func int() -> Int {
        let selector = byte()
        switch selector % 8 {
        case 0: return Int(byte()) - 8
        case 1: return Int(Int8(bitPattern: byte()))
        case 2: return Int(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte())))
        case 3: return [Int.max, Int.min, Int.max - 1, Int.min + 1, 0, -1][Int(byte()) % 6]
        case 4:
            var n: UInt64 = 0
            for _ in 0..<8 { n = n << 8 | UInt64(byte()) }
            return Int(Int64(bitPattern: n))
        default: return Int(selector / 8)
        }
    }

    /// A count or length in `0..<limit`.
    public mutating func below(_ limit: Int) -> Int { limit <= 1 ? 0 : Int(byte()) % limit }

    /// Text: a length, then that many bytes (repaired to valid UTF-8), sometimes a long run.
    public mutating func string() -> String {
        let length = byte()
        if length == 255 {
            // Long copy: past the renderer's 512-byte stack buffer.
            let fill = byte()
            return String(repeating: Character(Unicode.Scalar(fill % 94 + 32)), count: 300 + below(700))
        }
        var text: [UInt8] = []
        for _ in 0..<(length % 24) { text.append(byte()) }
        return String(decoding: text, as: UTF8.self)
    }

    /// A value of `type`, as an engine would supply it for a declared field (a time of day
    /// within a day, a weekday 1...7, an enum's own case), or `nil` (absent) for optionals
    /// when `absent` says so.
    public mutating func value(of type: ValueType) -> Value? {
        switch type {
        case .bool: return .bool(bool())
        case .int: return .int(int())
        case .string: return .string(string())
        case .duration: return .duration(int())
        case .instant: return .instant(instant())
        case .time: return .time(below(24 * 60) * 60)
        case .date: return .date(instant() / 86_400)
        case .weekday: return .weekday(1 + below(7))
        case .enumeration(let e): return e.cases.isEmpty ? .string("") : .string(e.cases[below(e.cases.count)])
        case .list(let element):
            var items: [Value] = []
            for _ in 0..<below(5) {
                if let item = value(of: element) { items.append(item) }
            }
            return .list(items)
        case .map(let element):
            // Keys from a small set, so that lookups by a fuzzed string sometimes hit.
            var entries: [String: Value] = [:]
            for index in 0..<below(4) {
                if let entry = value(of: element) { entries["k\(index)"] = entry }
            }
            return .map(entries)
        case .optional(let wrapped):
            return byte() % 4 == 0 ? nil : value(of: wrapped)
        }
    }

    /// An instant within what the request contract accepts (years 0001...9999), mostly near 2026.
    public mutating func instant() -> Int {
        let base = 1_773_000_000 // 2026-03-08
        switch byte() % 4 {
        case 0: return base + int() % (400 * 86_400)
        case 1: return -62_135_596_800 + Int(UInt32(truncatingIfNeeded: int())) * 60 // from 0001-01-01
        default: return base + Int(Int16(truncatingIfNeeded: int())) * 3_600
        }
    }
}
