/// A POSIX TZ string as a TZif footer gives it (RFC 8536 §3.3): how a zone's local time
/// continues after its last listed transition.
///
/// `EST5EDT,M3.2.0,M11.1.0` is standard time `EST` 5 hours west of UTC, daylight time
/// `EDT` (by default one hour ahead of standard), starting on the second Sunday of March at
/// 02:00 local standard time and ending on the first Sunday of November at 02:00 local
/// daylight time. Names are alphabetic (`EST`) or quoted (`<+1030>`); offsets are
/// `[+-]hh[:mm[:ss]]` *west* of UTC, hours 0–24; dates are `Mm.w.d` (day `d`, 0 = Sunday, of
/// week `w` of month `m`, week 5 = the last), `Jn` (day 1–365, February 29 never counted) or
/// `n` (day 0–365, counting February 29); a `/time` after a date defaults to `02:00` and,
/// as RFC 8536 extends POSIX, may be negative and up to 167 hours (`M3.5.0/-1`: 23:00 the
/// Saturday before; `M3.4.4/50`: 02:00 the Saturday after the fourth Thursday).
struct PosixTZRule: Sendable, Equatable {
    /// Standard time, seconds east of UTC.
    var standardOffset: Int
    /// Daylight time and when it applies; nil for a zone without daylight saving time.
    var daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        /// Seconds east of UTC.
        var offset: Int
        /// Daylight time starts at `startTime` (local standard time) on `start` …
        var start: RuleDate
        var startTime: Int
        /// … and ends at `endTime` (local daylight time) on `end`.
        var end: RuleDate
        var endTime: Int
    }

    enum RuleDate: Sendable, Equatable {
        /// `Jn`: day 1 ... 365 of the year, February 29 never counted.
        case julianNoLeap(Int)
        /// `n`: day 0 ... 365 of the year, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        /// The day (days since 1970-01-01) this date names in `year`.
        func day(inYear year: Int) -> Int {
            let january1 = CivilDate(year: year, month: 1, day: 1).days
            switch self {
            case .julianNoLeap(let n):
                return january1 + n - 1 + (CivilDate.isLeapYear(year) && n >= 60 ? 1 : 0)
            case .zeroBased(let n):
                return january1 + n
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1).days
                // `CivilDate.weekday` is 1 = Monday … 7 = Sunday; POSIX's is 0 = Sunday … 6.
                let firstWeekday = CivilDate.weekday(ofDay: first) % 7
                var day = first + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
                let length = CivilDate.daysInMonth(year: year, month: month)
                while day >= first + length { day -= 7 }
                return day
            }
        }
    }

    /// A change of offset the rule makes: at `instant`, daylight time starts (`daylight`) or
    /// ends.
    struct Change: Sendable, Equatable {
        var instant: Int
        var daylight: Bool
    }

    /// The two changes the rule makes for `year`'s dates (nothing without daylight time), in
    /// the order start, end. A change's instant may fall in a neighbouring year when its
    /// time is negative or past 24 hours.
    func changes(inYear year: Int) -> [Change] {
        guard let daylight else { return [] }
        let start = daylight.start.day(inYear: year) * 86_400 + daylight.startTime - standardOffset
        let end = daylight.end.day(inYear: year) * 86_400 + daylight.endTime - daylight.offset
        return [Change(instant: start, daylight: true), Change(instant: end, daylight: false)]
    }

    /// The offset after a change.
    func offset(daylight isDaylight: Bool) -> Int {
        isDaylight ? daylight?.offset ?? standardOffset : standardOffset
    }
}

extension PosixTZRule {
    /// Reads a TZ string, or nil unless it is exactly `std offset [dst [offset] ,date[/time],date[/time]]`.
    ///
    /// A daylight name without a rule (which POSIX leaves to the implementation, and which
    /// no TZif footer uses) is refused rather than guessed.
    init?(_ text: String) {
        var parser = Parser(bytes: Array(text.utf8))
        guard parser.name(), let standard = parser.offset(maxHours: 24) else { return nil }
        standardOffset = -standard
        if parser.atEnd {
            daylight = nil
            return
        }
        guard parser.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !parser.peek(0x2C) {                                              // ","
            guard let west = parser.offset(maxHours: 24) else { return nil }
            daylightOffset = -west
        }
        guard parser.expect(0x2C), let start = parser.date(), let startTime = parser.time(),
              parser.expect(0x2C), let end = parser.date(), let endTime = parser.time(), parser.atEnd
        else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        var atEnd: Bool { i == bytes.count }

        func peek(_ byte: UInt8) -> Bool { i < bytes.count && bytes[i] == byte }

        mutating func expect(_ byte: UInt8) -> Bool {
            guard peek(byte) else { return false }
            i += 1
            return true
        }

        static func isLetter(_ b: UInt8) -> Bool { (0x41 ... 0x5A).contains(b) || (0x61 ... 0x7A).contains(b) }
        static func isDigit(_ b: UInt8) -> Bool { (0x30 ... 0x39).contains(b) }

        /// A zone abbreviation: three or more letters, or `<…>` holding three or more
        /// letters, digits, `+` and `-`.
        mutating func name() -> Bool {
            let start = i
            if expect(0x3C) {                                                // "<"
                while i < bytes.count, Self.isLetter(bytes[i]) || Self.isDigit(bytes[i])
                    || bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
                let length = i - start - 1
                return length >= 3 && expect(0x3E)                           // ">"
            }
            while i < bytes.count, Self.isLetter(bytes[i]) { i += 1 }
            return i - start >= 3
        }

        /// `n` to `maxDigits` decimal digits.
        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            let start = i
            while i < bytes.count, Self.isDigit(bytes[i]), i - start < maxDigits {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            return i > start ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, hours at most `maxHours`.
        mutating func offset(maxHours: Int) -> Int? {
            var sign = 1
            if expect(0x2D) { sign = -1 } else { _ = expect(0x2B) }
            guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
            var seconds = hours * 3600
            if expect(0x3A) {                                                // ":"
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if expect(0x3A) {
                    guard let s = number(maxDigits: 2), s < 60 else { return nil }
                    seconds += s
                }
            }
            return sign * seconds
        }

        mutating func date() -> RuleDate? {
            if expect(0x4D) {                                                // "M"
                guard let month = number(maxDigits: 2), (1 ... 12).contains(month), expect(0x2E),
                      let week = number(maxDigits: 1), (1 ... 5).contains(week), expect(0x2E),
                      let weekday = number(maxDigits: 1), weekday <= 6
                else { return nil }
                return .monthWeekDay(month: month, week: week, weekday: weekday)
            }
            if expect(0x4A) {                                                // "J"
                guard let n = number(maxDigits: 3), (1 ... 365).contains(n) else { return nil }
                return .julianNoLeap(n)
            }
            guard let n = number(maxDigits: 3), n <= 365 else { return nil }
            return .zeroBased(n)
        }

        /// `/time` (RFC 8536: −167 … 167 hours), or 02:00 when absent.
        mutating func time() -> Int? {
            guard expect(0x2F) else { return 7200 }                          // "/"
            return offset(maxHours: 167)
        }
    }
}
