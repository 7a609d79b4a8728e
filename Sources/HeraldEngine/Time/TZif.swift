/// The contents of a TZif file (RFC 8536) that a zone's offset table is built from: the
/// version 2+ (64-bit) transitions, each one's offset from UTC, and the footer's POSIX TZ
/// string, which says how local time continues after the last transition.
///
/// Only what Herald uses is kept: abbreviations, the standard/wall and UT/local indicators
/// are checked for size and skipped. Files with leap-second records (the `right/` zones) are
/// refused: Herald's instants are POSIX seconds, which have no leap seconds.
struct TZif: Sendable, Equatable {
    /// Instants at which a new local time type takes effect, strictly increasing.
    var transitions: [Int]
    /// `transitions.count + 1` offsets, seconds east of UTC: `offsets[0]` holds before the
    /// first transition (RFC 8536: time type 0), `offsets[i + 1]` from `transitions[i]` on.
    var offsets: [Int]
    /// The footer's TZ string, empty when the file gives none.
    var footer: String

    /// The largest offset a TZif file may give, ±25:59:59 (RFC 8536 §3.2 suggests
    /// `-89999 ... 93599`; Herald takes the symmetric bound).
    static let offsetBound = 93_599
    /// Transition times beyond this many seconds from 1970 are refused.
    static let timeBound = 1 << 59
    /// Files larger than this are not zone data (the largest real one is a few kilobytes).
    static let maxSize = 1 << 20

    /// Reads a TZif file, or nil when it is not a well-formed version 2+ file without leap
    /// seconds whose offsets lie within ±25:59:59.
    init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maxSize, let v1 = Header(bytes, at: 0), v1.version >= 2 else { return nil }
        // The version 1 block (32-bit times) is only skipped; its counts say how far.
        let v2At = 44 + v1.timeCount * 5 + v1.typeCount * 6 + v1.charCount + v1.leapCount * 8
            + v1.standardCount + v1.utCount
        guard let v2 = Header(bytes, at: v2At), v2.version >= 2, v2.leapCount == 0 else { return nil }
        var reader = ByteReader(bytes: bytes, position: v2At + 44)
        guard let times = reader.take(v2.timeCount * 8), let indices = reader.take(v2.timeCount),
              let types = reader.take(v2.typeCount * 6),
              reader.take(v2.charCount + v2.standardCount + v2.utCount) != nil
        else { return nil }

        var typeOffsets: [Int] = []
        typeOffsets.reserveCapacity(v2.typeCount)
        for index in 0 ..< v2.typeCount {
            let offset = Int(Int32(bitPattern: ByteReader.bigEndian32(types, at: index * 6)))
            guard abs(offset) <= Self.offsetBound, types[index * 6 + 4] <= 1 else { return nil }
            typeOffsets.append(offset)
        }
        var transitions: [Int] = []
        var offsets = [typeOffsets[0]]
        transitions.reserveCapacity(v2.timeCount)
        offsets.reserveCapacity(v2.timeCount + 1)
        for index in 0 ..< v2.timeCount {
            let time = Int(Int64(bitPattern: ByteReader.bigEndian64(times, at: index * 8)))
            // zic writes −2⁵⁹ for "the beginning of time"; nothing real lies beyond ±2⁵⁹.
            guard abs(time) <= Self.timeBound, transitions.last.map({ $0 < time }) ?? true,
                  Int(indices[index]) < v2.typeCount
            else { return nil }
            transitions.append(time)
            offsets.append(typeOffsets[Int(indices[index])])
        }

        // The footer: a newline, the TZ string (ASCII, no newline), a newline, end of file.
        guard let footer = reader.footer() else { return nil }
        self.transitions = transitions
        self.offsets = offsets
        self.footer = footer
    }

    /// A TZif header: the magic `TZif`, a version and six counts.
    private struct Header {
        var version: Int
        var utCount: Int
        var standardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var charCount: Int

        init?(_ bytes: [UInt8], at position: Int) {
            guard position >= 0, position + 44 <= bytes.count,
                  bytes[position] == 0x54, bytes[position + 1] == 0x5A, bytes[position + 2] == 0x69,
                  bytes[position + 3] == 0x66                                          // "TZif"
            else { return nil }
            switch bytes[position + 4] {
            case 0: version = 1
            case 0x32 ... 0x39: version = Int(bytes[position + 4] - 0x30)              // "2", "3", "4"…
            default: return nil
            }
            func count(_ index: Int) -> Int { Int(ByteReader.bigEndian32(bytes, at: position + 20 + index * 4)) }
            utCount = count(0)
            standardCount = count(1)
            leapCount = count(2)
            timeCount = count(3)
            typeCount = count(4)
            charCount = count(5)
            // RFC 8536 §3.1: at least one type (at most 256, as indices are bytes); the
            // indicator arrays are empty or one entry per type.
            let limit = TZif.maxSize
            guard (1 ... 256).contains(typeCount), charCount >= 1, timeCount < limit, charCount < limit,
                  leapCount < limit, utCount == 0 || utCount == typeCount,
                  standardCount == 0 || standardCount == typeCount
            else { return nil }
        }
    }

    /// Sequential reads over the file's bytes, each checked against its end.
    private struct ByteReader {
        let bytes: [UInt8]
        var position: Int

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, position + count <= bytes.count else { return nil }
            defer { position += count }
            return Array(bytes[position ..< position + count])
        }

        /// The TZ string between the newlines that end the file.
        mutating func footer() -> String? {
            guard position < bytes.count, bytes[position] == 0x0A, bytes.last == 0x0A,
                  bytes.count - position >= 2
            else { return nil }
            let text = bytes[(position + 1) ..< (bytes.count - 1)]
            guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            position = bytes.count
            return String(decoding: text, as: UTF8.self)
        }

        static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                | UInt32(bytes[offset + 3])
        }

        static func bigEndian64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
            UInt64(bigEndian32(bytes, at: offset)) << 32 | UInt64(bigEndian32(bytes, at: offset + 4))
        }
    }
}
