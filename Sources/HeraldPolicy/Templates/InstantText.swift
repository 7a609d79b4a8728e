/// RFC 3339 text of an instant: the one writer of instants, used by copy templates here and
/// by the engine's contract (`RFC3339.format` in HeraldEngine), so every instant Herald
/// writes follows the same rules.
public enum InstantText {
    /// `instant` (seconds since 1970-01-01T00:00:00Z) as RFC 3339 at `offsetSeconds` east of
    /// UTC: `2026-03-08T07:30:00Z` for offset 0, `2026-03-08T03:00:00-04:00` otherwise.
    ///
    /// RFC 3339 offsets are whole minutes under a day and its years four digits: when the
    /// offset is not such (a pre-1972 Africa/Monrovia −00:44:30), or the local year would
    /// leave 0000–9999, the instant is written in UTC instead, so the text still names it
    /// exactly. Instants of years 0000–9999 in UTC are written with four digits; others (the
    /// engine never writes them) get more digits or a sign. Instants beyond ±2⁵⁰ seconds are
    /// clamped to it.
    public static func rfc3339(_ instant: Int, offsetSeconds: Int) -> String {
        let t = Swift.min(Swift.max(instant, -(1 << 50)), 1 << 50)
        var offset = (offsetSeconds % 60 == 0 && abs(offsetSeconds) < 86_400) ? offsetSeconds : 0
        // Years 0000–9999 in UTC: -62_167_219_200 ..< 253_402_300_800. Within a day of
        // either end the local year may leave them, and then the offset is dropped.
        if offset != 0, !(-62_167_219_200 + 86_400 ..< 253_402_300_800 - 86_400).contains(t) {
            let year = CalendarText.civil(floorDiv(t + offset, 86_400)).0
            if !(0 ... 9999).contains(year) { offset = 0 }
        }
        let local = t + offset
        let days = floorDiv(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = CalendarText.civil(days)

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
            if year < 0 { byte(0x2D) }
            put(abs(year), 4)
            byte(0x2D); put(month, 2)
            byte(0x2D); put(day, 2)
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

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
