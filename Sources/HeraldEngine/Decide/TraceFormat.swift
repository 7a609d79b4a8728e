import HeraldPolicy

/// The trace's text: local clocks, windows and durations as notes and verdicts show them.
/// Only formatting, called when a trace is read (`TraceLog`, `TraceText.lazy`), never while
/// deciding.
enum TraceFormat {
    /// A note followed by more text, both formatted when read.
    static func append(_ note: TraceText, _ more: String) -> TraceText {
        .lazy { note.string + more }
    }

    /// The local wall clock of an instant with its date: `2026-03-08 19:00`.
    static func localClock(_ instant: Int, _ zone: Zone) -> String {
        let local = zone.localDateTime(of: instant)
        let seconds = local.second == 0 ? "" : (local.second < 10 ? ":0" : ":") + "\(local.second)"
        return "\(local.civilDate) \(clock(local.secondOfDay))" + seconds
    }

    /// `22:00–07:00`.
    static func window(_ hours: QuietHours) -> String { "\(clock(hours.start * 60))–\(clock(hours.end * 60))" }

    /// `HH:MM` for seconds since midnight.
    static func clock(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// `15m`, `48h`, `7d`, `1h30m`.
    static func duration(_ seconds: Int) -> String {
        if seconds == 0 { return "0s" }
        var rest = seconds
        var text = ""
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    /// A cap's window: `day`, `calendar week`, `15m`.
    static func describe(_ per: CapWindow) -> String {
        switch per {
        case .day: "day"
        case .week: "week"
        case .previousSevenDays: "previous 7 local days"
        case .calendarWeek: "calendar week"
        case .month: "month"
        case .year: "year"
        case .lifetime: "lifetime"
        case .duration(let d): duration(d)
        }
    }
}
