import HeraldPolicy

/// A decision's trace as the engine records it: one plain-data record per stage, turned into
/// `TraceStep`s only when someone reads `Decision.trace` (`json()`, `herald explain`).
///
/// This is the trace's summary level, always on and nearly free: a record is the stage, the
/// outcome, the cited rule and a note code, with no reference counts and no text. The
/// record's citation and the names its note refers to belong to the type's table, which the
/// decision holds (one reference for the whole trace). Notes that need more than a code (verdicts,
/// deferrals by caps) are kept as `TraceText` beside the records.
struct TraceLog: Sendable {
    var records: TraceRecords
    /// The notes records refer to by `TraceNote.detail(index)`.
    var details: [TraceText]
    /// What `TraceNote.timing` and `TraceNote.key` read.
    var facts: TraceFacts

    /// The steps, with their notes formatted; `table` is the one whose citations and channel
    /// names the records point at (the decision holds it).
    func steps(table: TypeTable) -> [TraceStep] {
        records.map { record in
            var detail = text(of: record.note, table: table)
            if record.outcome != .skip, let judged = judgedNote(record.stage) {
                detail = .text(detail.map { "\($0.string); \(judged)" } ?? judged)
            }
            return TraceStep(stage: record.stage, outcome: record.outcome,
                             citation: record.citation.map { table.citations[$0] }, detailText: detail)
        }
    }

    /// Which instant the conditions of `stage` were judged at, for a type that computed its
    /// candidate delivery instant (docs/time.md, "When a rule is judged"); nil otherwise.
    private func judgedNote(_ stage: TraceStep.Stage) -> String? {
        guard let at = facts.judgedAt, stage == .eligibility || stage == .suppression else { return nil }
        return facts.judgedAtDelivery ? "judged at delivery \(TraceFormat.localClock(at, facts.zone))"
            : "judged at the trigger; delivery \(TraceFormat.localClock(at, facts.zone))"
    }

    private func text(of note: TraceNote, table: TypeTable) -> TraceText? {
        switch note {
        case .none: nil
        case .flushMember: .text("member notification for flush")
        case .rulesFalse(let n): .text("\(n) rule(s) false")
        case .capsHaveRoom(let n): .text("\(n) cap(s) have room")
        case .chosenChannel(let index): .text("channel `\(channelName(index, table: table))`")
        case .renderedOn(let index): .text("on `\(channelName(index, table: table))`")
        case .key: .text("key `\(facts.dedupeKey ?? "")`")
        case .timing: .text(timingText(table: table))
        case .batchingWindow:
            table.batching.map { plan in
                .text("no other member of `\(plan.name)` within \(TraceFormat.duration(plan.window))")
            }
        case .detail(let index): details[Int(index)]
        }
    }

    func channelName(_ index: Int16, table: TypeTable) -> String {
        if index < 0 { return table.fallbackChoice?.name ?? "" }
        let choices = table.channelChoices
        return Int(index) < choices.count ? choices[Int(index)].name : ""
    }

    /// The timing stage's note: how the trigger was aligned and where quiet hours moved it.
    private func timingText(table: TypeTable) -> String {
        let timing = table.type.timing, zone = facts.zone
        var detail: String
        switch timing.at {
        case .immediate: detail = "immediate"
        case .reminderTime: detail = "aligned to reminder time \(TraceFormat.clock(facts.reminderTime))"
        case .localTime(let s): detail = "aligned to local time \(TraceFormat.clock(s))"
        case .param(let name): detail = "at param `\(name)`"
        case .state(let path): detail = "at `state.\(path.joined(separator: "."))`"
        case .localState(let path, let fallback):
            detail = "aligned to the local time in `state.\(path.joined(separator: "."))`"
                + (fallback.map { " (else \(TraceFormat.clock($0)))" } ?? "")
        }
        let offset = timing.offset
        if offset != 0 { detail += " \(offset < 0 ? "-" : "+")\(TraceFormat.duration(abs(offset)))" }
        if facts.trainingDay { detail += "; moved to the next training day" }
        if let q = facts.quietHours {
            detail += "; deferred from \(TraceFormat.localClock(facts.quietFrom, zone)) to "
                + "\(TraceFormat.localClock(facts.quietTo, zone)) (quiet hours \(TraceFormat.window(q)))"
        }
        if let q = facts.quietPassive {
            detail += "; inside quiet hours \(TraceFormat.window(q)): delivered passive, without sound"
        }
        return detail + "; \(TraceFormat.localClock(facts.timingAt, zone))"
    }
}

/// The values a trace's coded notes are formatted from, recorded as the stages run.
struct TraceFacts: Sendable {
    /// The zone the local clocks in notes are read in.
    var zone: Zone
    /// The key the dedupe stage checked.
    var dedupeKey: String?
    /// The user's reminder time (seconds after midnight) when timing aligned to it.
    var reminderTime = 0
    /// Timing moved the notification to the next training day.
    var trainingDay = false
    /// A quiet-hours deferral from `quietFrom` to `quietTo`.
    var quietHours: QuietHours?
    var quietFrom = 0
    var quietTo = 0
    /// Delivered inside these quiet hours, quietly (`during: passive`).
    var quietPassive: QuietHours?
    /// The delivery instant when the timing stage passed.
    var timingAt = 0
    /// The candidate delivery instant the conditions saw (`delivery.*`), when computed.
    var judgedAt: Int?
    /// `timing.judgedAt: delivery`: `since()`, `local.*` and `sent(…)` were judged at it too.
    var judgedAtDelivery = false
}
