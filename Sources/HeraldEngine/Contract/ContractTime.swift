/// The few calendar conversions the JSON contract needs: RFC 3339 instants and `HH:MM`
/// times of day, on the proleptic Gregorian calendar with integer seconds.
///
/// Kept internal and self-contained so the contract builds on its own; the engine's time
/// module supersedes it where zones are involved.
enum ContractTime {
    /// Seconds since 1970-01-01T00:00:00Z for an RFC 3339 `date-time`
    /// (`2026-03-08T09:30:00Z`, `2026-03-08t09:30:00.250+01:00`), or nil if malformed.
    ///
    /// Fractional seconds are accepted and dropped (instants are whole seconds); a leap
    /// second (`:60`) and years outside 0001…9999 are rejected.
    static func parseInstant(_ text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        guard let year = digits(b, 0, 4), b[4] == UInt8(ascii: "-"),
              let month = digits(b, 5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(b, 8, 2),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = digits(b, 11, 2), b[13] == UInt8(ascii: ":"),
              let minute = digits(b, 14, 2), b[16] == UInt8(ascii: ":"),
              let second = digits(b, 17, 2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
            guard i > fractionStart else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == b.count, let oh = digits(b, i + 1, 2), b[i + 3] == UInt8(ascii: ":"),
                  let om = digits(b, i + 4, 2), oh < 24, om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second - offset
    }

    /// RFC 3339 text for `instant` as seen at `offsetSeconds` east of UTC: `Z` when the
    /// offset is zero, else `±HH:MM` (seconds of a historical offset are dropped from the
    /// suffix but still applied to the wall-clock digits).
    static func format(_ instant: Int, offsetSeconds: Int = 0) -> String {
        let local = instant + offsetSeconds
        let days = floorDiv(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civilFromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if offsetSeconds == 0 { return text + "Z" }
        let magnitude = abs(offsetSeconds)
        return text + (offsetSeconds < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + ":" + pad(magnitude / 60 % 60, 2)
    }

    /// Seconds after midnight for a `HH:MM` time of day (`"07:30"` → 27000), or nil.
    static func parseTimeOfDay(_ text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count == 5, b[2] == UInt8(ascii: ":"), let hour = digits(b, 0, 2), let minute = digits(b, 3, 2),
              hour < 24, minute < 60
        else { return nil }
        return hour * 3600 + minute * 60
    }

    /// `HH:MM` for seconds after midnight (seconds are dropped).
    static func formatTimeOfDay(_ seconds: Int) -> String {
        pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2)
    }

    // MARK: Calendar arithmetic (Howard Hinnant's days_from_civil / civil_from_days)

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
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
