import HeraldPolicy
import HeraldSyntax

/// One decision in progress: the stages in order (`pipeline`), each appending its trace
/// record.
///
/// A value whose stages are `mutating` methods run in place (no copies, and exclusivity
/// checked at compile time). Rule citations are `TableCitation`s, indices into the type
/// table's citations (formatted once per bundle); trace records are plain data whose notes
/// are codes (`TraceNote`) or, for verdicts, `TraceText`, formatted only when the trace is
/// read (`TraceLog`), so deciding builds no trace text and counts no references for it.
/// See docs/engine.md.
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
    /// `delivery: all`: the one channel (index in `table.channelChoices`) this run decides;
    /// negative for the usual first-channel choice.
    var onlyChannel: Int16 = -1
    /// Permission was denied and the type's fallback channel took over.
    var usedFallback = false
    /// The aligned instant (timing's anchor plus offset), before any deferral.
    var aligned = 0
    /// The delivery instant as the stages move it.
    var deliverAt = 0
    var scheduleReason = ScheduleReason.onTime
    /// The rule timing cites.
    var timingRule: TableCitation?
    /// The batch a `batched` verdict holds the notification for; without such a verdict, the
    /// batch a member of a `by: threadId` group scheduled alone opens (its schedule decision
    /// carries it, so that later members of the thread find it in the ledger).
    var batch: Decision.Batch?
    /// A quiet-hours deferral: from, to, window (minutes).
    var quietMove: (from: Int, to: Int, hours: QuietHours)?
    /// `quietHours.during: passive` and the delivery instant is inside quiet hours: rendered
    /// with interruption `passive` and no sound.
    var deliversQuietly = false
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

    /// The chosen channel (the table holds it; the run keeps only its index).
    var channel: ChannelChoice? {
        hasChannel ? Self.channel(channelIndex, in: table) : nil
    }

    /// The channel at `index` in `table.channelChoices` (negative: the fallback).
    @inline(__always)
    static func channel(_ index: Int16, in table: TypeTable) -> ChannelChoice? {
        index < 0 ? table.fallbackChoice : table.channelChoices[Int(index)]
    }

    /// Borrowed, not copied: the stages read single fields of these.
    var type: NotificationType { _read { yield table.type } }

    /// Records a step. A citation is a `TableCitation`: only the type's table makes them.
    @inline(__always)
    mutating func step(_ stage: TraceStep.Stage, _ outcome: TraceStep.Outcome, _ citation: TableCitation? = nil,
                       note: TraceNote = .none) {
        context.record(TraceRecord(stage: stage, outcome: outcome, citation: citation, note: note))
    }

    /// A step whose note is kept as text (verdicts, deferrals).
    mutating func step(_ stage: TraceStep.Stage, _ outcome: TraceStep.Outcome, _ citation: TableCitation? = nil,
                       detail: consuming TraceText?) {
        guard let detail else { return step(stage, outcome, citation) }
        details.append(detail)
        step(stage, outcome, citation, note: .detail(Int32(details.count - 1)))
    }

    /// Runs the stages of `pipeline` in order: the first verdict decides (suppress, or batch
    /// when the verdict is `batched`), and every later stage is recorded as skipped;
    /// without one the notification is scheduled.
    mutating func execute() -> Decision {
        let stages = Self.pipeline
        for position in stages.indices {
            let stage = stages[position]
            guard let verdict = check(stage) else { continue }
            step(stage, .verdict, verdict.citation, detail: verdict.detail)
            for later in stages[(position + 1)...] { step(later, .skip) }
            if verdict.reason == .batched, let batch {
                return finishBatch(batch, verdict: verdict)
            }
            step(.render, .skip)
            return suppressed(verdict)
        }
        return scheduled()
    }

    /// The decision, built in one step from what the stages found. The run is finished then:
    /// its notes and facts are moved into the decision, and the trace records copied once
    /// from the context into the decision's storage.
    mutating func decision(_ action: Decision.Action, reason: String, deliverAt: Int? = nil, key: consuming String? = nil,
                           batch: consuming Decision.Batch? = nil, rendering: Bool = false,
                           rule: TableCitation?, cap: String? = nil) -> Decision {
        var details: [TraceText] = []
        swap(&details, &self.details)
        var facts = TraceFacts(zone: self.facts.zone)
        swap(&facts, &self.facts)
        var decision = Decision(action: action, reason: reason, deliverAt: deliverAt,
                                utcOffset: deliverAt.map { zone.offset(at: $0) } ?? 0, key: key, batch: batch, cap: cap,
                                subject: context.subject, table: table, channelIndex: hasChannel ? channelIndex : onlyChannel >= 0 ? onlyChannel : nil,
                                usedFallback: usedFallback, rule: rule, notifies: rendering, details: details, facts: facts)
        decision.recordTrace { context.copyRecords(into: &$0) }
        if rendering { decision.renderNotification { render(into: &$0) } }
        return decision
    }

    /// The rule a verdict's decision cites: its citation when it has a place in the YAML.
    func rule(of verdict: Verdict) -> TableCitation? {
        table.citations[verdict.citation].source != nil ? verdict.citation : nil
    }

    mutating func suppressed(_ verdict: Verdict) -> Decision {
        decision(.suppress, reason: verdict.reason.code(in: table), rule: rule(of: verdict), cap: verdict.cap)
    }

    mutating func scheduled() -> Decision {
        // The preferences stage chose a channel (else it gave the `channel_off` verdict).
        step(.render, .pass, note: .renderedOn(channelIndex))
        let key = idempotencyKey(at: deliverAt)
        return decision(.schedule, reason: scheduleReason.rawValue, deliverAt: deliverAt, key: consume key,
                        batch: batch, rendering: true, rule: timingRule)
    }

    /// A batched decision: the notification joins `batch` and is rendered for its flush.
    mutating func finishBatch(_ batch: Decision.Batch, verdict: Verdict) -> Decision {
        step(.render, .pass, note: .flushMember)
        let key = idempotencyKey(at: deliverAt)
        return decision(.batch, reason: verdict.reason.code(in: table), deliverAt: batch.flushAt, key: consume key,
                        batch: batch, rendering: true, rule: rule(of: verdict), cap: verdict.cap)
    }
}
