/// The few calendar conversions Herald writes and reads in text: RFC 3339 instants (read by
/// `RFC3339.parse`, written by `InstantText.rfc3339` through `RFC3339.format`) and `HH:MM`
/// times of day.
package enum ContractTime {
    /// Seconds since 1970-01-01T00:00:00Z for an RFC 3339 `date-time`
    /// (`2026-03-08T09:30:00Z`, `2026-03-08t09:30:00.250+01:00`), or nil if malformed or
    /// outside `RFC3339.instants` (0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z in UTC).
    ///
    /// Fractional seconds are accepted and dropped (instants are whole seconds); a leap
    /// second (`:60`) is rejected.
    @inline(__always)
    package static func parseInstant(_ text: String) -> Int? { RFC3339.parse(text) }

    /// RFC 3339 text for `instant` as seen at `offsetSeconds` east of UTC: `Z` when the
    /// offset is zero, else `±HH:MM`; an offset with seconds (or a local year outside
    /// 0000–9999) is written in UTC instead (`RFC3339.format`).
    @inline(__always)
    package static func format(_ instant: Int, offsetSeconds: Int = 0) -> String {
        RFC3339.format(instant, offsetSeconds: offsetSeconds)
    }

    /// Seconds after midnight for a `HH:MM` time of day (`"07:30"` → 27000), or nil.
    package static func parseTimeOfDay(_ text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count == 5, b[2] == UInt8(ascii: ":"), let hour = digits(b, 0, 2), let minute = digits(b, 3, 2),
              hour < 24, minute < 60
        else { return nil }
        return hour * 3600 + minute * 60
    }

    /// `HH:MM` for seconds after midnight (seconds are dropped).
    package static func formatTimeOfDay(_ seconds: Int) -> String {
        pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2)
    }

    private static func digits(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            let byte = b[i]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
