import HeraldPolicy
import HeraldSyntax

/// One decision in progress: the stages in order, each appending its trace record.
///
/// A value whose stages are `mutating` methods run in place (no closures, no copies, and
/// exclusivity checked at compile time). Rule citations come from the engine's tables
/// (`Citation`, formatted once per bundle); trace records are plain data whose notes are
/// codes (`TraceNote`) or, for verdicts, `TraceText`, formatted only when the trace is read
/// (`TraceLog`), so deciding builds no trace text and counts no references for it.
struct DecisionRun {
    let engine: Engine
    let table: TypeTable
    let context: RequestContext
    /// The request's ledger and the user's zone, held here (the context holds them too) so
    /// that the stages read them in place: reading them through the context's header copies
    /// them, a reference count per read.
    let ledger: LedgerIndex
    let zone: Zone
    /// The notes records cite by `TraceNote.detail`.
    var details: [TraceText] = []
    /// What coded notes are formatted from.
    var facts: TraceFacts
    /// The preferences stage chose a channel: `channelIndex` says which.
    var hasChannel = false
    /// Where the chosen channel is in `table.channelChoices` (negative: the fallback).
    var channelIndex: Int16 = 0
    /// Permission was denied and the type's fallback channel took over.
    var usedFallback = false
    /// The aligned instant (timing's anchor plus offset), before any deferral.
    var aligned = 0
    /// The delivery instant as the stages move it.
    var deliverAt = 0
    var scheduleReason = "on_time"
    /// The rule timing cites (the table owns it).
    var timingRule: Unmanaged<Citation>?
    var batch: Decision.Batch?
    /// A quiet-hours deferral: from, to, window (minutes).
    var quietMove: (from: Int, to: Int, hours: QuietHours)?
    /// What the caps stage deferred: cap id, from, to.
    var capMoves: [(cap: String, from: Int, to: Int)] = []
    /// The last day window a cap counted.
    var dayWindow: Range<Int>?
    /// The idempotency key last built (`keyDate` is the local date it was built for,
    /// `Int.min` before any). Two fields rather than an optional tuple, which is destroyed
    /// through its metadata.
    var keyDate = Int.min
    var cachedKey = ""

    init(context: consuming RequestContext, table: TypeTable) {
        engine = context.engine
        self.table = table
        self.context = context
        ledger = context.ledger
        zone = context.prefs.zone
        facts = TraceFacts(zone: context.prefs.zone)
    }

    /// Runs `body` with the table and the context as borrowed references: the run holds the
    /// context and the context the table for the whole decision, so reading what they own
    /// (compiled conditions, cap plans, batch groups, citations) counts no reference.
    @inline(__always)
    func borrowing<R>(_ body: (TypeTable, RequestContext) -> R) -> R {
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { table in
            Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef { context in body(table, context) }
        }
    }

    /// The chosen channel (the table holds it; the run keeps only its index).
    var channel: ChannelChoice? {
        hasChannel ? Self.channel(channelIndex, in: table) : nil
    }

    /// The channel at `index` in `table.channelChoices` (negative: the fallback).
    @inline(__always)
    static func channel(_ index: Int16, in table: TypeTable) -> ChannelChoice? {
        index < 0 ? table.fallbackChoice : table.channelChoices[Int(index)]
    }

    /// A citation the table owns, unretained.
    @inline(__always)
    func cited(_ pick: (TypeTable) -> Citation) -> Unmanaged<Citation> {
        borrowing { table, _ in Unmanaged.passUnretained(pick(table)) }
    }

    /// Borrowed, not copied: the stages read single fields of these.
    var type: NotificationType { _read { yield table.type } }

    @inline(__always)
    mutating func step(_ stage: StageCode, _ outcome: TraceStep.Outcome, _ citation: Citation? = nil,
                       note: TraceNote = .none) {
        context.record(TraceRecord(stage: stage, outcome: outcome, citation: citation.map(Unmanaged.passUnretained),
                                   note: note))
    }

    /// `step` with a citation read unretained (`cited`).
    @inline(__always)
    mutating func step(_ stage: StageCode, _ outcome: TraceStep.Outcome, cited citation: Unmanaged<Citation>,
                       note: TraceNote = .none) {
        context.record(TraceRecord(stage: stage, outcome: outcome, citation: citation, note: note))
    }

    /// A step whose note is kept as text (verdicts, deferrals).
    mutating func step(_ stage: StageCode, _ outcome: TraceStep.Outcome, _ citation: Citation? = nil,
                       detail: consuming TraceText?) {
        guard let detail else { return step(stage, outcome, citation) }
        details.append(detail)
        step(stage, outcome, citation, note: .detail(Int32(details.count - 1)))
    }

    /// Runs stage `stage` (request … batching).
    @inline(__always)
    private mutating func run(_ stage: StageCode) -> Verdict? {
        switch stage {
        case .request: checkRequest()
        case .eligibility: checkEligibility()
        case .preferences: checkPreferences()
        case .permission: checkPermission()
        case .suppression: checkSuppression()
        case .dedupe: checkDedupe()
        case .timing: checkTiming()
        case .caps: checkCaps()
        case .batching: checkBatching()
        case .render: nil  // the decision's own step (`scheduled`, `finishBatch`)
        }
    }

    mutating func execute() -> Decision {
        for stage in StageCode.allCases where stage != .render {
            if let verdict = run(stage) {
                if verdict.reason == "batched", let batch {
                    return finishBatch(batch, verdict: verdict, after: stage)
                }
                step(stage, .verdict, verdict.citation, detail: verdict.detail)
                for later in StageCode.allCases where later.rawValue > stage.rawValue { step(later, .skip) }
                return suppressed(verdict)
            }
        }
        return scheduled()
    }

    /// The decision, built in one step from what the stages found. The run is finished then:
    /// its notes and facts are moved into the decision, and the trace records copied once
    /// from the context.
    mutating func decision(_ action: Decision.Action, reason: String, deliverAt: Int? = nil, key: consuming String? = nil,
                           batch: consuming Decision.Batch? = nil, rendering: Bool = false,
                           rule: Unmanaged<Citation>?, cap: String? = nil) -> Decision {
        var details: [TraceText] = []
        swap(&details, &self.details)
        var facts = TraceFacts(zone: self.facts.zone)
        swap(&facts, &self.facts)
        let records = context.records
        var decision = Decision(action: action, reason: reason, deliverAt: deliverAt,
                                utcOffset: deliverAt.map { zone.offset(at: $0) } ?? 0, key: key, batch: batch, cap: cap,
                                subject: context.subject, table: table, channelIndex: hasChannel ? channelIndex : nil,
                                usedFallback: usedFallback, rule: rule, notifies: rendering,
                                records: records.first, moreRecords: records.more, details: details, facts: facts)
        if rendering { decision.renderNotification { render(into: &$0) } }
        return decision
    }

    /// The rule a verdict's decision cites: its citation when it has a place in the YAML
    /// (the table owns it).
    func rule(of verdict: Verdict) -> Unmanaged<Citation>? {
        guard let citation = verdict.citation, citation.source != nil else { return nil }
        return Unmanaged.passUnretained(citation)
    }

    mutating func suppressed(_ verdict: Verdict) -> Decision {
        decision(.suppress, reason: verdict.reason, rule: rule(of: verdict), cap: verdict.cap)
    }

    mutating func scheduled() -> Decision {
        // The preferences stage chose a channel (else it gave the `channel_off` verdict).
        step(.render, .pass, note: .renderedOn(channelIndex))
        let key = idempotencyKey(at: deliverAt)
        return decision(.schedule, reason: scheduleReason, deliverAt: deliverAt, key: consume key, rendering: true,
                        rule: timingRule)
    }

    mutating func finishBatch(_ batch: Decision.Batch, verdict: Verdict, after stage: StageCode) -> Decision {
        step(stage, .verdict, verdict.citation, detail: verdict.detail)
        for later in StageCode.allCases where later.rawValue > stage.rawValue && later != .render { step(later, .skip) }
        step(.render, .pass, note: .flushMember)
        let key = idempotencyKey(at: deliverAt)
        return decision(.batch, reason: "batched", deliverAt: batch.flushAt, key: consume key, batch: batch,
                        rendering: true, rule: rule(of: verdict), cap: verdict.cap)
    }
}
