import HeraldPolicy

/// RFC 3339 timestamps (`2026-03-08T02:30:00-05:00`), parsed and formatted without
/// Foundation's formatters: the hot path and the trace both use them.
public enum RFC3339 {
    /// The instants Herald reads and writes: 0001-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59Z, the years a four-digit RFC 3339 year can hold in UTC.
    ///
    /// Text whose digits are in range can still name an instant outside it
    /// (`9999-12-31T23:59:59-23:59` is in year 10000 in UTC); `parse` refuses such text, so
    /// every instant read can be written back.
    public static let instants = -62_135_596_800 ... 253_402_300_799

    /// The instant a timestamp names, or nil unless the text is exactly
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` and the instant lies in `instants`.
    ///
    /// `T` and `Z` may be lowercase (RFC 3339 §5.6); fractional seconds are truncated; the
    /// date must exist (no 2026-02-30); `-00:00` ("offset unknown") reads as UTC. Leap
    /// seconds (`:60`) are rejected: Herald's instants are POSIX seconds, which have none.
    public static func parse(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse(_:)` over UTF-8 bytes.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let instant = instantIgnoringRange(utf8: bytes), instants.contains(instant) else { return nil }
        return instant
    }

    /// The instant a well-formed timestamp names, whether or not it lies in `instants`
    /// (for telling "malformed" from "out of range" in error messages).
    static func instantIgnoringRange(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { instantIgnoringRange(utf8: $0) }
    }

    /// Whether `text` is a well-formed timestamp naming an instant outside `instants`, so
    /// that a request error can say what is wrong with it.
    package static func isOutOfRange(_ text: String) -> Bool {
        guard let instant = instantIgnoringRange(text) else { return false }
        return !instants.contains(instant)
    }

    /// What a request error expects instead of an instant outside `instants`.
    package static let rangeExpectation = "an instant from 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z in UTC"

    static func instantIgnoringRange(utf8 b: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = b.count
        guard n >= 20 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int? {
            let d = b[i] &- 0x30
            return d < 10 ? Int(d) : nil
        }
        @inline(__always) func two(_ i: Int) -> Int? {
            guard let high = digit(i), let low = digit(i + 1) else { return nil }
            return high * 10 + low
        }
        guard let y1 = two(0), let y2 = two(2), b[4] == 0x2D, let month = two(5), b[7] == 0x2D,
              let day = two(8), b[10] == 0x54 || b[10] == 0x74, let hour = two(11), b[13] == 0x3A,
              let minute = two(14), b[16] == 0x3A, let second = two(17)
        else { return nil }
        let date = CivilDate(year: y1 * 100 + y2, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second < 60 else { return nil }

        var i = 19
        if b[i] == 0x2E {                                             // "." then at least one digit
            i += 1
            let fractionStart = i
            while i < n, digit(i) != nil { i += 1 }
            guard i > fractionStart else { return nil }
        }
        guard i < n else { return nil }
        let offset: Int
        switch b[i] {
        case 0x5A, 0x7A:                                              // Z or z
            guard i + 1 == n else { return nil }
            offset = 0
        case 0x2B, 0x2D:                                              // + or -
            guard i + 6 == n, let offsetHour = two(i + 1), b[i + 3] == 0x3A, let offsetMinute = two(i + 4),
                  offsetHour < 24, offsetMinute < 60
            else { return nil }
            offset = (b[i] == 0x2D ? -1 : 1) * (offsetHour * 3600 + offsetMinute * 60)
        default:
            return nil
        }
        return date.days * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    /// `instant` as an RFC 3339 timestamp at the given offset from UTC:
    /// `2026-03-08T07:30:00Z` for offset 0, `2026-03-08T03:00:00-04:00` otherwise.
    ///
    /// Written by `InstantText.rfc3339`, the one writer of instants: RFC 3339 offsets are
    /// whole minutes under a day, and its years four digits; when the offset is not such (a
    /// pre-1972 Africa/Monrovia −00:44:30), or the local year would leave 0000–9999, the
    /// instant is written in UTC instead, so the text still names it exactly and `parse`
    /// reads back every instant in `instants`.
    @inline(__always)
    public static func format(_ instant: Int, offsetSeconds: Int) -> String {
        InstantText.rfc3339(instant, offsetSeconds: offsetSeconds)
    }

    /// `instant` as an RFC 3339 timestamp at `zone`'s offset in force at that instant.
    public static func format(_ instant: Int, in zone: Zone) -> String {
        format(instant, offsetSeconds: zone.offset(at: instant))
    }
}
