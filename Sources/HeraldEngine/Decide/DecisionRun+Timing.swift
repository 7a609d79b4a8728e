import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    /// Aligns the trigger (anchor, offset, training days) and sets `aligned`, `deliverAt`,
    /// `scheduleReason` and `timingRule`. Pure; verdicts come from `checkTiming`.
    mutating func computeAlignment() {
        let timing = type.timing
        let prefs = context.prefs
        let at = request.at
        var t: Int
        switch timing.at {
        case .immediate:
            t = at
            scheduleReason = "on_time"
        case .reminderTime:
            t = zone.nextOccurrence(of: prefs.reminderTime / 60, atOrAfter: at)
            scheduleReason = "reminder_time"
        case .localTime(let seconds):
            t = zone.nextOccurrence(of: seconds / 60, atOrAfter: at)
            scheduleReason = "local_time"
        case .param(let name):
            if case .instant(let i)? = context.value(at: ["params", name]) { t = i } else { t = at }
            scheduleReason = "on_time"
        case .state(let path):
            if case .instant(let i)? = context.value(at: ["state"] + path) { t = i } else { t = at }
            scheduleReason = "on_time"
        }
        t = t.addingReportingOverflow(timing.offset).overflow ? t : t + timing.offset
        if timing.trainingDays, !type.critical, !prefs.trainingDays.isEmpty,
           let next = nextTrainingDay(reminderTime: prefs.reminderTime / 60,
                                      trainingDays: Weekdays(weekdays: prefs.trainingDays), in: zone, atOrAfter: t),
           next != t {
            t = next
            scheduleReason = "training_day"
        }
        aligned = t
        deliverAt = max(t, context.now)
        timingRule = Decision.Rule(id: "\(type.id).timing", source: (timing.span ?? type.span).citation)
    }

    /// The user's quiet hours as the time module wants them (minutes), unless the type bypasses.
    var activeQuietHours: QuietHours? {
        guard table.quietHours != .bypass, let q = context.prefs.quietHours else { return nil }
        let hours = QuietHours(start: q.start / 60, end: q.end / 60)
        return hours.isEmpty ? nil : hours
    }

    var quietRuleID: String { type.timing.quietHours != nil ? "\(type.id).timing.quietHours" : "quietHours" }

    /// Moves `deliverAt` out of quiet hours (`defer`), or returns the `quiet_hours` verdict
    /// (`suppress`).
    mutating func applyQuietHours() -> Verdict? {
        guard let hours = activeQuietHours else { return nil }
        let out = zone.deferOutOfQuietHours(deliverAt, hours)
        guard out != deliverAt else { return nil }
        let span = table.quietHoursSource ?? type.span
        let window = "\(Self.clock(hours.start * 60))–\(Self.clock(hours.end * 60))"
        if table.quietHours == .suppress {
            return Verdict(reason: "quiet_hours", rule: quietRuleID, source: span,
                           detail: "\(localClock(deliverAt)) is inside quiet hours \(window)")
        }
        quietDetail = "deferred from \(localClock(deliverAt)) to \(localClock(out)) (quiet hours \(window))"
        deliverAt = out
        scheduleReason = "quiet_hours"
        timingRule = Decision.Rule(id: quietRuleID, source: span.citation)
        return nil
    }

    mutating func checkExpiry(_ stage: TraceStep.Stage) -> Verdict? {
        guard let expires = type.timing.expires, deliverAt > aligned + expires else { return nil }
        return Verdict(reason: "expired", rule: "\(type.id).timing.expires", source: type.timing.span ?? type.span,
                       detail: "\(localClock(deliverAt)) is more than \(Self.duration(expires)) after \(localClock(aligned))")
    }

    // MARK: 7. Timing

    mutating func checkTiming() -> Verdict? {
        let alignedDetail: String
        switch type.timing.at {
        case .immediate: alignedDetail = "immediate"
        case .reminderTime: alignedDetail = "aligned to reminder time \(Self.clock(context.prefs.reminderTime))"
        case .localTime(let s): alignedDetail = "aligned to local time \(Self.clock(s))"
        case .param(let name): alignedDetail = "at param `\(name)`"
        case .state(let path): alignedDetail = "at `state.\(path.joined(separator: "."))`"
        }
        var detail = alignedDetail
        if type.timing.offset != 0 { detail += " \(type.timing.offset < 0 ? "-" : "+")\(Self.duration(abs(type.timing.offset)))" }
        if scheduleReason == "training_day" { detail += "; moved to the next training day" }
        if let verdict = applyQuietHours() { return verdict }
        if let q = quietDetail { detail += "; " + q }
        if let verdict = checkExpiry(.timing) { return verdict }
        detail += "; \(localClock(deliverAt))"
        let rule = timingRule
        step(.timing, .pass, rule: rule?.id, source: nil, detail: detail)
        if let rule { trace[trace.count - 1].source = rule.source }
        return nil
    }

    // MARK: Formatting

    /// The local wall clock of an instant with its date: `2026-03-08 19:00`.
    func localClock(_ instant: Int) -> String {
        let local = zone.localDateTime(of: instant)
        let seconds = local.second == 0 ? "" : (local.second < 10 ? ":0" : ":") + "\(local.second)"
        return "\(local.civilDate) \(Self.clock(local.secondOfDay))" + seconds
    }

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
