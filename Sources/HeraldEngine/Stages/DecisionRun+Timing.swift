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
            scheduleReason = .onTime
        case .reminderTime:
            t = timing.sameDay ? sameDay(context.prefs.reminderTime / 60, at)
                : zone.nextOccurrence(of: context.prefs.reminderTime / 60, atOrAfter: at)
            scheduleReason = .reminderTime
        case .localTime(let seconds):
            t = timing.sameDay ? sameDay(seconds / 60, at) : zone.nextOccurrence(of: seconds / 60, atOrAfter: at)
            scheduleReason = .localTime
        case .localState(_, let fallback):
            // A `time` state field (`local(state(path))`); absent only when optional, and then
            // the fallback the compiler required.
            var seconds = fallback ?? 0
            if let read = table.timingRead, case .time(let s)? = context.value(read) { seconds = s }
            t = timing.sameDay ? sameDay(seconds / 60, at) : zone.nextOccurrence(of: seconds / 60, atOrAfter: at)
            scheduleReason = .localTime
        case .param, .state:
            if let read = table.timingRead, case .instant(let i)? = context.value(read) { t = i } else { t = at }
            scheduleReason = .onTime
        }
        t = t.addingReportingOverflow(timing.offset).overflow ? t : t + timing.offset
        if timing.trainingDays, !table.criticalSkipsTrainingDays, case let days = engine.trainingDays(context.input), !days.isEmpty,
           let next = nextTrainingDay(reminderTime: context.prefs.reminderTime / 60,
                                      trainingDays: Weekdays(weekdays: days), in: zone, atOrAfter: t),
           next != t {
            t = next
            scheduleReason = .trainingDay
        }
        aligned = t
        deliverAt = max(t, context.now)
        timingRule = table.timingCitation
    }

    /// The aligned instant is already past when decided, and the type says `past: skip`.
    var isMissed: Bool {
        table.skipsPast && aligned < context.now
    }

    /// Computes the candidate delivery instant (the aligned instant moved out of quiet hours
    /// when the type defers; cap deferrals come later and are not part of it) and lets the
    /// conditions judge at it (`delivery.*`, and `since()`, `local.*`, `sent(…)` windows for
    /// `judgedAt: delivery`). docs/time.md, "When a rule is judged".
    mutating func judgeAtDelivery() {
        computeAlignment()
        var candidate = deliverAt
        if table.quietHours == .defer, let hours = activeQuietHours {
            candidate = zone.deferOutOfQuietHours(candidate, hours)
        }
        context.judge(deliveryAt: candidate, atDelivery: table.judgesAtDelivery)
        facts.judgedAt = candidate
        facts.judgedAtDelivery = table.judgesAtDelivery
    }

    /// The `missed` verdict of `past: skip`.
    func checkPast() -> Verdict? {
        guard isMissed else { return nil }
        let zone = zone, aligned = aligned, now = context.now
        return Verdict(reason: .missed, citation: table.cite.past,
                       detail: .lazy { "\(TraceFormat.localClock(aligned, zone)) was already past at \(TraceFormat.localClock(now, zone))" })
    }

    /// `sameDay`: wall-clock `minute` on the local date of `at`, even when already past (the
    /// next occurrence when that date has none).
    func sameDay(_ minute: Int, _ at: Int) -> Int {
        zone.occurrence(of: minute, on: zone.localDateTime(of: at).date) ?? zone.nextOccurrence(of: minute, atOrAfter: at)
    }

    /// The user's quiet hours as the time module wants them (minutes), unless the type bypasses.
    var activeQuietHours: QuietHours? {
        guard table.quietHours != .bypass, let q = context.prefs.quietHours else { return nil }
        let hours = QuietHours(start: q.start / 60, end: q.end / 60)
        return hours.isEmpty ? nil : hours
    }

    /// Moves `deliverAt` out of quiet hours (`defer`), returns the `quiet_hours` verdict
    /// (`suppress`), or keeps it and delivers quietly (`passive`, reason `quiet_hours_passive`).
    /// Called again after a cap's deferral, so `deliversQuietly` follows the final instant.
    mutating func applyQuietHours() -> Verdict? {
        guard let hours = activeQuietHours else { return nil }
        let out = zone.deferOutOfQuietHours(deliverAt, hours)
        if table.quietHours == .passive {
            deliversQuietly = out != deliverAt
            guard deliversQuietly else { return nil }
            scheduleReason = .quietHoursPassive
            timingRule = table.cite.quietHours
            facts.quietPassive = hours
            return nil
        }
        guard out != deliverAt else { return nil }
        if table.quietHours == .suppress {
            let zone = zone, at = deliverAt
            return Verdict(reason: .quietHours, citation: table.cite.quietHours,
                           detail: .lazy { "\(TraceFormat.localClock(at, zone)) is inside quiet hours \(TraceFormat.window(hours))" })
        }
        quietMove = (deliverAt, out, hours)
        deliverAt = out
        scheduleReason = .quietHours
        timingRule = table.cite.quietHours
        return nil
    }

    func checkExpiry() -> Verdict? {
        guard let expires = type.timing.expires, deliverAt > aligned + expires else { return nil }
        let zone = zone, at = deliverAt, aligned = aligned
        return Verdict(reason: .expired, citation: table.cite.expires,
                       detail: .lazy { "\(TraceFormat.localClock(at, zone)) is more than \(TraceFormat.duration(expires)) after \(TraceFormat.localClock(aligned, zone))" })
    }

    // MARK: 7. Timing

    mutating func checkTiming() -> Verdict? {
        let trainingDay = scheduleReason == .trainingDay
        if let verdict = checkPast() { return verdict }
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
}
