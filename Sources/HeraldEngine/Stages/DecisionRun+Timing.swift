import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    /// Aligns the trigger (anchor, offset, training days) and sets `aligned`, `deliverAt`,
    /// `scheduleReason` and `timingRule`. Pure; verdicts come from `checkTiming`.
    mutating func computeAlignment() {
        let timing = type.timing
        let at = context.at
        var t: Int
        switch timing.at {
        case .immediate:
            t = at
            scheduleReason = "on_time"
        case .reminderTime:
            t = zone.nextOccurrence(of: context.prefs.reminderTime / 60, atOrAfter: at)
            scheduleReason = "reminder_time"
        case .localTime(let seconds):
            t = zone.nextOccurrence(of: seconds / 60, atOrAfter: at)
            scheduleReason = "local_time"
        case .param, .state:
            if let read = table.timingRead, case .instant(let i)? = context.value(read) { t = i } else { t = at }
            scheduleReason = "on_time"
        }
        t = t.addingReportingOverflow(timing.offset).overflow ? t : t + timing.offset
        if timing.trainingDays, !type.critical, case let days = engine.trainingDays(context.input), !days.isEmpty,
           let next = nextTrainingDay(reminderTime: context.prefs.reminderTime / 60,
                                      trainingDays: Weekdays(weekdays: days), in: zone, atOrAfter: t),
           next != t {
            t = next
            scheduleReason = "training_day"
        }
        aligned = t
        deliverAt = max(t, context.now)
        timingRule = Unmanaged.passUnretained(table.timingCitation)
    }

    /// The user's quiet hours as the time module wants them (minutes), unless the type bypasses.
    var activeQuietHours: QuietHours? {
        guard table.quietHours != .bypass, let q = context.prefs.quietHours else { return nil }
        let hours = QuietHours(start: q.start / 60, end: q.end / 60)
        return hours.isEmpty ? nil : hours
    }

    /// Moves `deliverAt` out of quiet hours (`defer`), or returns the `quiet_hours` verdict
    /// (`suppress`).
    mutating func applyQuietHours() -> Verdict? {
        guard let hours = activeQuietHours else { return nil }
        let out = zone.deferOutOfQuietHours(deliverAt, hours)
        guard out != deliverAt else { return nil }
        if table.quietHours == .suppress {
            let zone = zone, at = deliverAt
            return Verdict(reason: "quiet_hours", citation: table.cite.quietHours,
                           detail: .lazy { "\(Self.localClock(at, zone)) is inside quiet hours \(Self.window(hours))" })
        }
        quietMove = (deliverAt, out, hours)
        deliverAt = out
        scheduleReason = "quiet_hours"
        timingRule = Unmanaged.passUnretained(table.cite.quietHours)
        return nil
    }

    func checkExpiry() -> Verdict? {
        guard let expires = type.timing.expires, deliverAt > aligned + expires else { return nil }
        let zone = zone, at = deliverAt, aligned = aligned
        return Verdict(reason: "expired", citation: table.cite.expires,
                       detail: .lazy { "\(Self.localClock(at, zone)) is more than \(Self.duration(expires)) after \(Self.localClock(aligned, zone))" })
    }

    // MARK: 7. Timing

    mutating func checkTiming() -> Verdict? {
        let trainingDay = scheduleReason == "training_day"
        if let verdict = applyQuietHours() { return verdict }
        if let verdict = checkExpiry() { return verdict }
        facts.reminderTime = context.prefs.reminderTime
        facts.trainingDay = trainingDay
        if let q = quietMove {
            facts.quietHours = q.hours
            facts.quietFrom = q.from
            facts.quietTo = q.to
        }
        facts.timingAt = deliverAt
        context.record(TraceRecord(stage: .timing, outcome: .pass, citation: timingRule, note: .timing))
        return nil
    }

    // MARK: Formatting

    /// The local wall clock of an instant with its date: `2026-03-08 19:00`.
    mutating func localClock(_ instant: Int) -> String { Self.localClock(instant, zone) }

    static func localClock(_ instant: Int, _ zone: Zone) -> String {
        let local = zone.localDateTime(of: instant)
        let seconds = local.second == 0 ? "" : (local.second < 10 ? ":0" : ":") + "\(local.second)"
        return "\(local.civilDate) \(Self.clock(local.secondOfDay))" + seconds
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
}
