/// A date of the proleptic Gregorian calendar, convertible to and from a day number
/// (days since 1970-01-01).
///
/// The conversions are Howard Hinnant's `days_from_civil` / `civil_from_days`
/// (<https://howardhinnant.github.io/date_algorithms.html>): branch-light integer
/// arithmetic, exact for every year Herald can meet, and independent of Foundation's
/// `Calendar` so the hot path never allocates or locks.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    /// 1 ... 12.
    public var month: Int
    /// 1 ... 31.
    public var day: Int

    /// A date from its parts; they are not checked (see `isValid`).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number (days since 1970-01-01, which is day 0).
    /// - Complexity: O(1).
    public init(days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097                                   // [0, 146096]
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365 // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)              // [0, 365], March-based
        let mp = (5 * doy + 2) / 153                                   // [0, 11], March = 0
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// The day number of this date (days since 1970-01-01). Out-of-range months and days
    /// are not normalised; check `isValid` first when the parts come from input.
    /// - Complexity: O(1).
    public var days: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400                                        // [0, 399]
        let mp = month > 2 ? month - 3 : month + 9                     // March = 0
        let doy = (153 * mp + 2) / 5 + day - 1                         // [0, 365]
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy                // [0, 146096]
        return era * 146_097 + doe - 719_468
    }

    /// Whether month and day name a real date of `year`.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDate.daysInMonth(year: year, month: month)
    }

    /// The weekday of this date, 1 = Monday … 7 = Sunday.
    public var weekday: Int { CivilDate.weekday(ofDay: days) }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// 28 ... 31 for months 1 ... 12; 0 for any other month.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: isLeapYear(year) ? 29 : 28
        default: 0
        }
    }

    /// The weekday of a day number, 1 = Monday … 7 = Sunday (day 0, 1970-01-01, was a Thursday).
    @inline(__always)
    public static func weekday(ofDay days: Int) -> Int {
        let r = (days + 3) % 7
        return (r < 0 ? r + 7 : r) + 1
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// Writes `YYYY-MM-DD` (10 bytes) at `out`; `year` in 0 ... 9999, `month` and `day` in 0 ... 99.
    @inline(__always)
    static func writeISO(year: Int, month: Int, day: Int, into out: UnsafeMutablePointer<UInt8>) {
        let zero = UInt8(ascii: "0")
        out[0] = zero &+ UInt8(truncatingIfNeeded: year / 1000)
        out[1] = zero &+ UInt8(truncatingIfNeeded: year / 100 % 10)
        out[2] = zero &+ UInt8(truncatingIfNeeded: year / 10 % 10)
        out[3] = zero &+ UInt8(truncatingIfNeeded: year % 10)
        out[4] = UInt8(ascii: "-")
        out[5] = zero &+ UInt8(truncatingIfNeeded: month / 10)
        out[6] = zero &+ UInt8(truncatingIfNeeded: month % 10)
        out[7] = UInt8(ascii: "-")
        out[8] = zero &+ UInt8(truncatingIfNeeded: day / 10)
        out[9] = zero &+ UInt8(truncatingIfNeeded: day % 10)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        if (0 ... 9999).contains(year), (0 ... 99).contains(month), (0 ... 99).contains(day) {
            // `YYYY-MM-DD` written digit by digit: a small string, no allocation.
            return String(unsafeUninitializedCapacity: 10) { buffer in
                Self.writeISO(year: year, month: month, day: day, into: buffer.baseAddress!)
                return 10
            }
        }
        let y = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        return "\(y)-\(pad(month, 2))-\(pad(day, 2))"
    }

    private func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
