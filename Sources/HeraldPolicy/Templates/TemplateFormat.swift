/// How `{x, time[, style]}` and `{x, date[, style]}` write a value (docs/templates.md, Local
/// times and dates): fixed English patterns, the same on every machine (no locale is read).
/// An instant is shown in the user's zone; a `time` or `date` value is already local.
enum TemplateFormat: UInt8, Sendable, Hashable, CaseIterable {
    /// `15:30` (`{x, time}`, `{x, time, 24h}`)
    case time24
    /// `3:30 PM` (`{x, time, 12h}`)
    case time12
    /// `2026-03-08` (`{x, date}`, `{x, date, iso}`)
    case dateISO
    /// `Mar 8, 2026` (`{x, date, medium}`)
    case dateMedium
    /// `March 8, 2026` (`{x, date, long}`)
    case dateLong
    /// `Sunday, March 8` (`{x, date, weekday}`)
    case dateWeekday

    /// The styles of each kind, as written; the first is the default.
    static let timeStyles: [(String, TemplateFormat)] = [("24h", .time24), ("12h", .time12)]
    static let dateStyles: [(String, TemplateFormat)] = [("iso", .dateISO), ("medium", .dateMedium), ("long", .dateLong), ("weekday", .dateWeekday)]

    var isTime: Bool { self == .time24 || self == .time12 }

    private static let months = ["January", "February", "March", "April", "May", "June", "July",
                                 "August", "September", "October", "November", "December"]
    private static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// `value` in this style; `offset` answers the user's UTC offset at an instant. Nil for a
    /// value of another kind (the compiler allows only instants, times and dates).
    func text(of value: Value?, offset: (Int) -> Int) -> String? {
        let secondOfDay: Int, days: Int
        switch value {
        case .instant(let t)?:
            let local = t + offset(t)
            days = Self.floorDiv(local, 86_400)
            secondOfDay = local - days * 86_400
        case .time(let s)? where isTime:
            secondOfDay = s
            days = 0
        case .date(let d)? where !isTime:
            secondOfDay = 0
            days = d
        default:
            return nil
        }
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60
        switch self {
        case .time24:
            return CalendarText.pad(hour) + ":" + CalendarText.pad(minute)
        case .time12:
            let h = hour % 12 == 0 ? 12 : hour % 12
            return "\(h):" + CalendarText.pad(minute) + (hour < 12 ? " AM" : " PM")
        case .dateISO:
            return CalendarText.date(days)
        case .dateMedium, .dateLong, .dateWeekday:
            let (y, m, d) = CalendarText.civil(days)
            let month = Self.months[m - 1]
            switch self {
            case .dateMedium: return "\(month.prefix(3)) \(d), \(y)"
            case .dateLong: return "\(month) \(d), \(y)"
            default:
                // 1970-01-01 (day 0) was a Thursday.
                let weekday = Self.weekdays[(days % 7 + 7 + 3) % 7]
                return "\(weekday), \(month) \(d)"
            }
        }
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
