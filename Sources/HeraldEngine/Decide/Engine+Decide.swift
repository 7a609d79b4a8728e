import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// Decides one notification: schedule, suppress or batch, with the reason, the rule that
    /// decided and a trace of every stage.
    ///
    /// Pure and deterministic: the same request, `now` and bundle give the same decision, byte
    /// for byte in `json()`. Stages run in order and the first verdict wins: request check,
    /// eligibility, preferences, permission, suppression, dedupe, timing, caps, batching,
    /// render (see docs/decisions.md).
    /// - Parameters:
    ///   - request: the trigger with the user's prefs, state, params and history.
    ///   - now: the caller's clock (usually `request.now`).
    /// - Returns: the decision, or every problem with the request (unknown type, values of the
    ///   wrong type, unknown fields, an unknown zone). Absent data is not an error but the
    ///   decision `missing_data`.
    /// - Complexity: O(h log h) for h history entries (the ledger index), then O(log h) per cap.
    public func decide(_ request: DecisionRequest, now: Int) -> Result<Decision, RequestErrors> {
        decideOne(request, now: now)
    }

    /// Decides one notification against a ledger the caller keeps: the service indexes a
    /// user's history once (`ledger(_:)`), inserts what it schedules, and decides many
    /// notifications without re-indexing. Same decision as `decide(_:now:)` when `ledger`
    /// indexes `request.history`; `request.history` is not read.
    /// - Complexity: O(log h) per cap and dedupe check for h indexed entries.
    public func decide(_ request: DecisionRequest, ledger: LedgerIndex, now: Int) -> Result<Decision, RequestErrors> {
        decideOne(request, ledger: ledger, now: now)
    }

    /// The ledger index `decide(_:ledger:now:)` expects for a user's history (types joined
    /// to this bundle's categories).
    /// - Complexity: O(h log h).
    public func ledger(_ history: [HistoryEntry]) -> LedgerIndex {
        LedgerIndex(history, categories: categoryOfType)
    }

    /// `decide` with an optional kept ledger. The decision's `subject` is what it counted by
    /// (the type's `subject` template, else the request's), which a plan feeds back into the
    /// ledger even for suppressed decisions' JSON leaving it out.
    func decideOne(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int) -> Result<Decision, RequestErrors> {
        guard let table = tables[request.type] else { return .failure(unknownType(request.type)) }
        var errors: [RequestError] = []
        let prefs = preferences(request.prefs, errors: &errors)
        return withContext(request, table: table, prefs: prefs, ledger: ledger, now: now) { context in
            context.userID = convertFields(state: request.state, user: request.user, into: context.slots, errors: &errors)
            return decide(context, table: table, params: request.params, errors: errors)
        }
    }

    /// `decideOne`, reusing the effective preferences and converted `state`/`user` values of
    /// the previous request when this one's are equal (a plan's candidates usually share
    /// them); `reuse` then holds this request's.
    func decideOne(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int,
                   reuse: inout RequestConversions) -> Result<Decision, RequestErrors> {
        guard let table = tables[request.type] else { return .failure(unknownType(request.type)) }
        var errors: [RequestError] = []
        let prefs: EffectivePreferences
        if reuse.hasPrefs, reuse.prefsInput == request.prefs {
            prefs = reuse.prefs
        } else {
            prefs = preferences(request.prefs, errors: &errors)
            reuse.hasPrefs = errors.isEmpty
            if reuse.hasPrefs {
                reuse.prefsInput = request.prefs
                reuse.prefs = prefs
            }
        }
        return withContext(request, table: table, prefs: prefs, ledger: ledger, now: now) { context in
            let slots = context.slots
            if reuse.hasFields, reuse.state == request.state, reuse.user == request.user {
                reuse.fields.withUnsafeBufferPointer { fields in
                    for index in fields.indices { slots.set(index, fields[index]) }
                }
                context.userID = reuse.userID
            } else {
                let before = errors.count
                context.userID = convertFields(state: request.state, user: request.user, into: slots, errors: &errors)
                reuse.hasFields = errors.count == before
                if reuse.hasFields {
                    reuse.state = request.state
                    reuse.user = request.user
                    reuse.userID = context.userID
                    reuse.fields = Array(UnsafeBufferPointer(start: slots.base, count: fields.count))
                }
            }
            return decide(context, table: table, params: request.params, errors: errors)
        }
    }

    private func unknownType(_ type: String) -> RequestErrors {
        var message = "unknown type `\(type)`"
        if let close = Suggestions.closest(to: type, in: bundle.types.names) { message += "; did you mean `\(close)`?" }
        return RequestErrors([RequestError(path: "type", message: message)])
    }

    /// Runs `body` with the context of one decision, with no value converted yet. The
    /// context reads the request in place, so it is pinned for the call (without a ledger,
    /// the request's history is indexed here).
    func withContext<R>(_ request: DecisionRequest, table: TypeTable, prefs: EffectivePreferences,
                        ledger: LedgerIndex?, now: Int, _ body: (RequestContext) -> R) -> R {
        let ledger = ledger ?? LedgerIndex(request.history, categories: categoryOfType)
        return withUnsafePointer(to: request) { request in
            body(RequestContext.make(engine: self, table: table, request: request, now: now, prefs: prefs, ledger: ledger))
        }
    }

    /// The rest of a decision once preferences and `state`/`user` are converted: the params,
    /// then the stages. (Inlined into both `decideOne`s, as the optimizer chose before the
    /// range check below made it just too large to.)
    @inline(__always)
    private func decide(_ context: RequestContext, table: TypeTable, params: JSON,
                        errors: consuming [RequestError]) -> Result<Decision, RequestErrors> {
        var errors = errors
        convertParams(params, table: table, into: context.paramSlots, errors: &errors)
        guard errors.isEmpty else { return .failure(RequestErrors(errors)) }
        if let template = table.subjectTemplate {
            let rendered = template.render(context, localDate: nil)
            if !rendered.isEmpty { context.renderedSubject = rendered }
        }
        var run = DecisionRun(context: context, table: table)
        let decision = run.execute()
        // A decision would carry an instant RFC 3339 cannot write (a trigger late on
        // 9999-12-31 whose reminder time falls in year 10000): a request error, so that every
        // instant a decision writes lies in `RFC3339.instants` and reads back as a request.
        // (A batch decision's `deliverAt` is its batch's `flushAt`; its key's start is at or
        // before that and at or after `now`.)
        if let deliverAt = decision.deliverAt, !RFC3339.instants.contains(deliverAt) { return .failure(Self.unwritable) }
        return .success(decision)
    }

    /// The request error of a decision whose delivery instant Herald cannot write.
    static var unwritable: RequestErrors {
        RequestErrors([RequestError(path: "at", message: "the decision would deliver outside 0001-01-01T00:00:00Z "
                                        + "through 9999-12-31T23:59:59Z, the instants Herald can write")])
    }
}

/// A request's converted inputs, kept for the next request (`decideOne(_:ledger:now:reuse:)`):
/// each part is reused only when that request's input is equal to the one it came from.
struct RequestConversions {
    /// `prefs` came from `prefsInput`.
    var hasPrefs = false
    var prefsInput = PreferencesInput()
    var prefs = EffectivePreferences(zone: .utc, pausedAll: false, reminderTime: 0, quietHours: nil, maxPerDay: nil)
    /// `fields` (indexed like `Engine.fields`, `.null`: absent) and `userID` came from `state`
    /// and `user`.
    var hasFields = false
    var state = JSON.null
    var user = JSON.null
    var userID = ""
    var fields: [Value] = []
}

/// A verdict: the notification is suppressed (or batched) for a reason by a rule.
struct Verdict {
    var reason: String
    /// The rule that spoke and where it is written.
    var citation: Citation?
    var cap: String?
    var detail: TraceText?
}

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

    // MARK: 1. Request check

    mutating func checkRequest() -> Verdict? {
        let missing: Int? = borrowing { table, context in table.requiredReads.firstIndex { context.value($0) == nil } }
        if let index = missing {
            let path = table.requiredPaths[index]
            return Verdict(reason: "missing_data", citation: table.cite.missingData,
                           detail: .lazy { "`\(path.joined(separator: "."))` is absent" })
        }
        step(.request, .pass)
        return nil
    }

    // MARK: 2. Eligibility

    mutating func checkEligibility() -> Verdict? {
        let outcome: Bool? = borrowing { table, context in table.eligibleEval?.evaluateBool(context) }
        guard let eligible = outcome else {
            step(.eligibility, .pass)
            return nil
        }
        guard eligible else {
            let source = type.eligible?.source ?? ""
            return Verdict(reason: "ineligible", citation: table.cite.eligible,
                           detail: .lazy { "`\(source)` is false" })
        }
        step(.eligibility, .pass, cited: cited { $0.cite.eligible })
        return nil
    }

    // MARK: 3. Preferences

    mutating func checkPreferences() -> Verdict? {
        let locked = table.locked
        if context.prefs.pausedAll && !locked {
            return Verdict(reason: "paused_all", citation: table.cite.pausedAll,
                           detail: .text("the user paused all notifications"))
        }
        if let requires = table.requiresEval, !borrowing({ _, context in requires.evaluateBool(context) }) {
            let source = table.category?.requires?.source ?? ""
            return Verdict(reason: "category_off", citation: table.cite.categoryRequires,
                           detail: .lazy { "`\(source)` is false" })
        }
        if !locked && !(context.input.categories.isEmpty ? table.categoryDefaultOn
                        : context.input.categories[type.category] ?? table.categoryDefaultOn) {
            let category = type.category
            return Verdict(reason: "category_off", citation: table.cite.categoryToggle,
                           detail: .lazy { "category `\(category)` is off" })
        }
        if !type.locked && !(context.input.types.isEmpty ? type.defaultOn : context.input.types[type.id] ?? type.defaultOn) {
            let id = type.id, byDefault = context.input.types[type.id] == nil
            return Verdict(reason: "type_off", citation: table.cite.typeToggle,
                           detail: .lazy { byDefault ? "`\(id)` is off by default" : "the user turned `\(id)` off" })
        }
        // The first channel whose master toggle and category-channel toggle are on.
        // A locked type or category (security alerts, one-time codes) is exempt from every
        // preference switch: pause all, the category toggles and the channel master toggles.
        let chosen: Int? = borrowing { table, context in
            table.channelChoices.indices.first { index in
                if locked { return true }
                return Unmanaged.passUnretained(table.channelChoices[index])._withUnsafeGuaranteedRef { ch in
                    if ch.toggle, !(context.input.channels.isEmpty ? ch.defaultOn
                                    : (context.input.channels[ch.name] ?? ch.defaultOn)) { return false }
                    return context.input.categories.isEmpty ? ch.categoryDefaultOn
                        : (context.input.categories[ch.categoryKey] ?? ch.categoryDefaultOn)
                }
            }
        }
        hasChannel = chosen != nil
        channelIndex = Int16(truncatingIfNeeded: chosen ?? 0)
        guard hasChannel else {
            let id = type.id, channels = type.channels
            return Verdict(reason: "channel_off", citation: table.cite.channels,
                           detail: .lazy { "every channel of `\(id)` is off: " + channels.joined(separator: ", ") })
        }
        step(.preferences, .pass, note: .chosenChannel(channelIndex))
        return nil
    }

    // MARK: 4. Permission

    mutating func checkPermission() -> Verdict? {
        let needsPermission = hasChannel && borrowing { table, _ in
            Self.channel(channelIndex, in: table)?.permission ?? false
        }
        guard needsPermission, context.permission == .denied, let chosen = channel else {
            step(.permission, .pass)
            return nil
        }
        let denied = chosen.name
        if let fallbackChannel = table.fallbackChoice {
            usedFallback = true
            channelIndex = -1
            let to = fallbackChannel.name
            step(.permission, .pass, table.cite.fallback,
                 detail: .lazy { "permission denied for `\(denied)`; falling back to `\(to)`" })
            return nil
        }
        return Verdict(reason: "system_denied", citation: table.cite.channels,
                       detail: .lazy { "OS permission denied for `\(denied)` and no fallback" })
    }

    // MARK: 5. Suppression

    mutating func checkSuppression() -> Verdict? {
        let count = table.suppressWhen.count
        // The first rule whose condition holds (no condition: always).
        let hit: Int? = borrowing { table, context in
            table.suppressEvals.indices.first { table.suppressEvals[$0]?.evaluateBool(context) ?? true }
        }
        if let index = hit {
            let source = table.suppressWhen[index]?.source
            return Verdict(reason: table.suppressReasons[index], citation: table.suppressCitations[index],
                           detail: source.map { s in .lazy { "`\(s)` is true" } })
        }
        step(.suppression, .pass, note: count == 0 ? .none : .rulesFalse(Int32(truncatingIfNeeded: count)))
        return nil
    }

    // MARK: 6. Dedupe

    mutating func checkDedupe() -> Verdict? {
        // The key depends on the local delivery date, so timing is computed first (it is
        // pure); its verdicts are reported in the timing stage below.
        computeAlignment()
        let key = idempotencyKey(at: deliverAt)
        if let window = type.dedupe.flatMap({ $0.window ?? engine.bundle.dedupe.window }) {
            if ledger.contains(key: key, within: window, of: deliverAt) {
                return Verdict(reason: "duplicate", citation: table.cite.dedupe,
                               detail: .lazy { "`\(key)` within \(Self.duration(window))" })
            }
        } else if ledger.contains(key: key) {
            return Verdict(reason: "duplicate", citation: table.cite.key,
                           detail: .lazy { "`\(key)` is already in the history" })
        }
        facts.dedupeKey = key
        step(.dedupe, .pass, note: .key)
        return nil
    }
}
