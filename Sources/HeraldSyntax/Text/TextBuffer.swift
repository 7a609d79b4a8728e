/// Builds a string from pieces by copying UTF-8 bytes into one growing buffer, then makes the
/// string once. `String +=` re-checks the join between the pieces on every append (grapheme
/// and normalization flags), several hundred instructions each; rendering copy and keys on a
/// decision's hot path appends a handful of pieces, so this is markedly cheaper.
public struct TextBuffer {
    @usableFromInline var bytes: [UInt8]

    /// An empty buffer with room for `capacity` bytes.
    @inlinable
    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends UTF-8 bytes.
    @inlinable
    public mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: utf8)
    }

    /// Appends a decimal integer.
    @inlinable
    public mutating func append(_ number: Int) {
        if number >= 0 && number < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        append(String(number))
    }

    /// The text (the pieces are valid UTF-8 already; decoding checks it once).
    @inlinable
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// `a` + `separator` + `b` + `separator` + `c`, built in one allocation.
    public static func join(_ a: String, _ b: String, _ c: String, separator: UInt8) -> String {
        var a = a, b = b, c = c
        let count = a.utf8.count + b.utf8.count + c.utf8.count + 2
        return a.withUTF8 { ua in
            b.withUTF8 { ub in
                c.withUTF8 { uc in
                    String(unsafeUninitializedCapacity: count) { out in
                        var i = 0
                        func put(_ piece: UnsafeBufferPointer<UInt8>) {
                            if let base = piece.baseAddress { (out.baseAddress! + i).initialize(from: base, count: piece.count) }
                            i += piece.count
                        }
                        put(ua)
                        out[i] = separator
                        i += 1
                        put(ub)
                        out[i] = separator
                        i += 1
                        put(uc)
                        return i
                    }
                }
            }
        }
    }
}
