/// RFC 3339 timestamps (`2026-03-08T02:30:00-05:00`), parsed and formatted without
/// Foundation's formatters: the hot path and the trace both use them.
public enum RFC3339 {
    /// The instant a timestamp names, or nil unless the text is exactly
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
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
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= bytes.count else { return nil }
            var value = 0
            for _ in 0 ..< count {
                let b = bytes[i]
                guard b >= 0x30, b <= 0x39 else { return nil }
                value = value * 10 + Int(b - 0x30)
                i += 1
            }
            return value
        }
        func expect(_ allowed: UInt8...) -> Bool {
            guard i < bytes.count, allowed.contains(bytes[i]) else { return false }
            i += 1
            return true
        }

        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              expect(0x54, 0x74), let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A),
              let second = digits(2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second < 60 else { return nil }

        if i < bytes.count, bytes[i] == 0x2E {                   // "." then at least one digit
            i += 1
            let fractionStart = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > fractionStart else { return nil }
        }

        let offset: Int
        if expect(0x5A, 0x7A) {                                   // Z or z
            offset = 0
        } else {
            guard i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D else { return nil }
            let sign = bytes[i] == 0x2D ? -1 : 1
            i += 1
            guard let offsetHour = digits(2), expect(0x3A), let offsetMinute = digits(2),
                  offsetHour < 24, offsetMinute < 60
            else { return nil }
            offset = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard i == bytes.count else { return nil }
        return date.days * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    /// `instant` as an RFC 3339 timestamp at the given offset from UTC:
    /// `2026-03-08T07:30:00Z` for offset 0, `2026-03-08T03:00:00-04:00` otherwise.
    ///
    /// RFC 3339 offsets are whole minutes under a day; any other offset (a pre-1972
    /// Africa/Monrovia −00:44:30) formats in UTC instead, so the text still names the
    /// instant. Years outside 0000 ... 9999 are written with more digits or a sign, which
    /// `parse` does not accept.
    public static func format(_ instant: Int, offsetSeconds: Int) -> String {
        let offset = (offsetSeconds % 60 == 0 && abs(offsetSeconds) < 86_400) ? offsetSeconds : 0
        let local = Zone.clamp(instant) + offset
        let days = Zone.floorDiv(local, 86_400)
        let secondOfDay = local - days * 86_400
        let date = CivilDate(days: days)

        // At most 1 + 16 digits of year plus "-MM-DDTHH:MM:SS+HH:MM": 38 bytes.
        return String(unsafeUninitializedCapacity: 40) { out in
            var n = 0
            func byte(_ b: UInt8) {
                out[n] = b
                n += 1
            }
            func put(_ value: Int, _ width: Int) {
                var divisor = 1
                for _ in 1 ..< width { divisor *= 10 }
                while divisor <= value / 10 { divisor *= 10 }
                while divisor > 0 {
                    byte(0x30 + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            if date.year < 0 { byte(0x2D) }
            put(abs(date.year), 4)
            byte(0x2D); put(date.month, 2)
            byte(0x2D); put(date.day, 2)
            byte(0x54); put(secondOfDay / 3600, 2)
            byte(0x3A); put(secondOfDay / 60 % 60, 2)
            byte(0x3A); put(secondOfDay % 60, 2)
            if offset == 0 {
                byte(0x5A)
            } else {
                byte(offset < 0 ? 0x2D : 0x2B)
                put(abs(offset) / 3600, 2)
                byte(0x3A); put(abs(offset) / 60 % 60, 2)
            }
            return n
        }
    }

    /// `instant` as an RFC 3339 timestamp at `zone`'s offset in force at that instant.
    public static func format(_ instant: Int, in zone: Zone) -> String {
        format(instant, offsetSeconds: zone.offset(at: instant))
    }
}
