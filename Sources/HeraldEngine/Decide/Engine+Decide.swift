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
        let fieldValues = schemaValues(request, errors: &errors)
        return decideOne(request, table: table, prefs: prefs, fieldValues: fieldValues, errors: errors, ledger: ledger, now: now)
    }

    /// `decideOne`, reusing the effective preferences and converted `state`/`user` values of
    /// the previous request when this one's are equal (a plan's candidates usually share
    /// them); `reuse` then holds this request's.
    func decideOne(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int,
                   reuse: inout RequestConversions) -> Result<Decision, RequestErrors> {
        guard let table = tables[request.type] else { return .failure(unknownType(request.type)) }
        var errors: [RequestError] = []
        let prefs: EffectivePreferences?
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
        let fieldValues: SlotValues
        if reuse.hasFields, reuse.state == request.state, reuse.user == request.user {
            fieldValues = reuse.fields
        } else {
            let before = errors.count
            fieldValues = schemaValues(request, errors: &errors)
            reuse.hasFields = errors.count == before
            if reuse.hasFields {
                reuse.state = request.state
                reuse.user = request.user
                reuse.fields = fieldValues
            }
        }
        return decideOne(request, table: table, prefs: prefs, fieldValues: fieldValues, errors: errors, ledger: ledger, now: now)
    }

    private func unknownType(_ type: String) -> RequestErrors {
        var message = "unknown type `\(type)`"
        if let close = Suggestions.closest(to: type, in: bundle.types.names) { message += "; did you mean `\(close)`?" }
        return RequestErrors([RequestError(path: "type", message: message)])
    }

    /// The rest of a decision once preferences and `state`/`user` are converted: the params,
    /// then the stages.
    private func decideOne(_ request: DecisionRequest, table: TypeTable, prefs: consuming EffectivePreferences?,
                           fieldValues: consuming SlotValues, errors: consuming [RequestError],
                           ledger: LedgerIndex?, now: Int) -> Result<Decision, RequestErrors> {
        var errors = errors
        let params = paramValues(request, table: table, errors: &errors)
        guard errors.isEmpty, let prefs = consume prefs else { return .failure(RequestErrors(errors)) }
        let ledger = ledger ?? LedgerIndex(request.history, categories: categoryOfType)
        let context = RequestContext(engine: self, table: table, request: request, now: now, prefs: prefs,
                                     fieldValues: fieldValues, paramValues: params, ledger: ledger,
                                     subject: request.subject)
        if let template = table.type.subject {
            let rendered = template.render { renderValue($0, context: context, localDate: nil) }
            context.subject = rendered.isEmpty ? request.subject : rendered
        }
        var run = DecisionRun(engine: self, table: table, context: context)
        return .success(run.execute())
    }
}

/// A request's converted inputs, kept for the next request (`decideOne(_:ledger:now:reuse:)`):
/// each part is reused only when that request's input is equal to the one it came from.
struct RequestConversions {
    /// `prefs` came from `prefsInput`.
    var hasPrefs = false
    var prefsInput = PreferencesInput()
    var prefs: EffectivePreferences?
    /// `fields` came from `state` and `user`.
    var hasFields = false
    var state = JSON.null
    var user = JSON.null
    var fields = SlotValues(count: 0)
}

/// A verdict: the notification is suppressed (or batched) for a reason by a rule.
struct Verdict {
    var reason: String
    /// The rule that spoke and where it is written.
    var citation: Citation?
    var cap: String?
    var detail: TraceText?
}

/// One decision in progress: the stages in order, each appending its trace step.
///
/// A value whose stages are `mutating` methods run in place (no closures, no copies, and
/// exclusivity checked at compile time). Rule citations come from the engine's tables
/// (`Citation`, formatted once per bundle); trace notes are recorded as `TraceText` (a name,
/// a count, or a closure over the values that explain the step) and formatted only when
/// read, so deciding builds no trace text.
struct DecisionRun {
    let engine: Engine
    let table: TypeTable
    let context: RequestContext
    var trace: [TraceStep] = []
    var channel: ChannelChoice?
    var fallback: String?
    /// The aligned instant (timing's anchor plus offset), before any deferral.
    var aligned = 0
    /// The delivery instant as the stages move it.
    var deliverAt = 0
    var scheduleReason = "on_time"
    var timingRule: Decision.Rule?
    var batch: Decision.Batch?
    /// A quiet-hours deferral: from, to, window (minutes).
    var quietMove: (from: Int, to: Int, hours: QuietHours)?
    /// What the caps stage deferred: cap id, from, to.
    var capMoves: [(cap: String, from: Int, to: Int)] = []
    /// The last day window a cap counted.
    var dayWindow: Range<Int>?
    /// The idempotency key last built, with the local date it was built for.
    var keyCache: (date: Int, key: String)?

    init(engine: Engine, table: TypeTable, context: RequestContext) {
        self.engine = engine
        self.table = table
        self.context = context
    }

    /// Borrowed, not copied: the stages read single fields of these.
    var type: NotificationType { _read { yield table.type } }
    var zone: Zone { _read { yield context.prefs.zone } }

    static let stages: [TraceStep.Stage] = [
        .request, .eligibility, .preferences, .permission, .suppression, .dedupe, .timing, .caps, .batching, .render,
    ]

    @inline(__always)
    mutating func step(_ stage: consuming TraceStep.Stage, _ outcome: TraceStep.Outcome, _ citation: consuming Citation? = nil,
                       detail: consuming TraceText? = nil) {
        let recorded = TraceStep(stage: stage, outcome: outcome, citation: citation, detailText: detail)
        trace.append(consume recorded)
    }

    mutating func step(_ stage: TraceStep.Stage, _ outcome: TraceStep.Outcome, rule: Decision.Rule?, detail: TraceText? = nil) {
        trace.append(TraceStep(stage: stage, outcome: outcome, citation: rule?.citation, detailText: detail))
    }

    /// Runs stage `index` (0 = request … 8 = batching).
    @inline(__always)
    private mutating func run(stage index: Int) -> Verdict? {
        switch index {
        case 0: checkRequest()
        case 1: checkEligibility()
        case 2: checkPreferences()
        case 3: checkPermission()
        case 4: checkSuppression()
        case 5: checkDedupe()
        case 6: checkTiming()
        case 7: checkCaps()
        default: checkBatching()
        }
    }

    mutating func execute() -> Decision {
        trace.reserveCapacity(Self.stages.count)
        for index in 0 ..< Self.stages.count - 1 {
            if let verdict = run(stage: index) {
                if verdict.reason == "batched", let batch {
                    return finishBatch(batch, verdict: verdict, after: index)
                }
                step(Self.stages[index], .verdict, verdict.citation, detail: verdict.detail)
                for later in Self.stages[(index + 1)...] { step(later, .skip) }
                return suppressed(verdict)
            }
        }
        return scheduled()
    }

    /// The decision, built in one step from what the stages found.
    func decision(_ action: Decision.Action, reason: String, deliverAt: Int? = nil, key: consuming String? = nil,
                  batch: consuming Decision.Batch? = nil, notification: consuming Decision.Notification? = nil,
                  rule: Decision.Rule?, cap: String? = nil) -> Decision {
        Decision(action: action, reason: reason, deliverAt: deliverAt, utcOffset: deliverAt.map { zone.offset(at: $0) } ?? 0,
                 type: type.id, category: type.category, channel: channel?.name, key: key, batch: batch,
                 fallback: fallback, notification: notification, rule: rule, cap: cap, subject: context.subject,
                 trace: trace, policy: engine.policy)
    }

    func rule(of verdict: Verdict) -> Decision.Rule? {
        guard let citation = verdict.citation, citation.source != nil else { return nil }
        return Decision.Rule(citation: citation)
    }

    mutating func suppressed(_ verdict: Verdict) -> Decision {
        decision(.suppress, reason: verdict.reason, rule: rule(of: verdict), cap: verdict.cap)
    }

    mutating func scheduled() -> Decision {
        let notification = render()
        step(.render, .pass, detail: .quoted("on ", channel?.name ?? ""))
        let key = idempotencyKey(at: deliverAt)
        return decision(.schedule, reason: scheduleReason, deliverAt: deliverAt, key: consume key,
                        notification: consume notification, rule: timingRule)
    }

    mutating func finishBatch(_ batch: Decision.Batch, verdict: Verdict, after index: Int) -> Decision {
        let stage = Self.stages[index]
        step(stage, .verdict, verdict.citation, detail: verdict.detail)
        for later in Self.stages[(index + 1)...] where later != .render { step(later, .skip) }
        let notification = render()
        step(.render, .pass, detail: .text("member notification for flush"))
        let key = idempotencyKey(at: deliverAt)
        return decision(.batch, reason: "batched", deliverAt: batch.flushAt, key: consume key, batch: batch,
                        notification: consume notification, rule: rule(of: verdict), cap: verdict.cap)
    }

    // MARK: 1. Request check

    mutating func checkRequest() -> Verdict? {
        for (index, read) in table.requiredReads.enumerated() where context.value(read) == nil {
            let path = table.requiredPaths[index]
            return Verdict(reason: "missing_data", citation: table.cite.missingData,
                           detail: .lazy { "`\(path.joined(separator: "."))` is absent" })
        }
        step(.request, .pass)
        return nil
    }

    // MARK: 2. Eligibility

    mutating func checkEligibility() -> Verdict? {
        guard let eligible = type.eligible else {
            step(.eligibility, .pass)
            return nil
        }
        guard eligible.evaluateBool(context) else {
            let source = eligible.source
            return Verdict(reason: "ineligible", citation: table.cite.eligible,
                           detail: .lazy { "`\(source)` is false" })
        }
        step(.eligibility, .pass, table.cite.eligible)
        return nil
    }

    // MARK: 3. Preferences

    mutating func checkPreferences() -> Verdict? {
        let locked = table.locked
        if context.prefs.pausedAll && !locked {
            return Verdict(reason: "paused_all", citation: table.cite.pausedAll,
                           detail: .text("the user paused all notifications"))
        }
        if let requires = table.category?.requires, !requires.evaluateBool(context) {
            let source = requires.source
            return Verdict(reason: "category_off", citation: table.cite.categoryRequires,
                           detail: .lazy { "`\(source)` is false" })
        }
        if !locked && !(context.prefs.categories.isEmpty ? table.categoryDefaultOn
                        : context.prefs.categories[type.category] ?? table.categoryDefaultOn) {
            let category = type.category
            return Verdict(reason: "category_off", citation: table.cite.categoryToggle,
                           detail: .lazy { "category `\(category)` is off" })
        }
        if !type.locked && !(context.prefs.types.isEmpty ? type.defaultOn : context.prefs.types[type.id] ?? type.defaultOn) {
            let id = type.id, byDefault = context.prefs.types[type.id] == nil
            return Verdict(reason: "type_off", citation: table.cite.typeToggle,
                           detail: .lazy { byDefault ? "`\(id)` is off by default" : "the user turned `\(id)` off" })
        }
        // The first channel whose master toggle and category-channel toggle are on.
        // A locked type or category (security alerts, one-time codes) is exempt from every
        // preference switch: pause all, the category toggles and the channel master toggles.
        channel = nil
        for ch in table.channelChoices {
            if locked { channel = ch; break }
            if ch.toggle, !(context.prefs.channels.isEmpty ? ch.defaultOn : (context.prefs.channels[ch.name] ?? ch.defaultOn)) { continue }
            if context.prefs.categories.isEmpty ? ch.categoryDefaultOn : (context.prefs.categories[ch.categoryKey] ?? ch.categoryDefaultOn) {
                channel = ch
                break
            }
        }
        guard let chosen = channel else {
            let id = type.id, channels = type.channels
            return Verdict(reason: "channel_off", citation: table.cite.channels,
                           detail: .lazy { "every channel of `\(id)` is off: " + channels.joined(separator: ", ") })
        }
        step(.preferences, .pass, detail: .quoted("channel ", chosen.name))
        return nil
    }

    // MARK: 4. Permission

    mutating func checkPermission() -> Verdict? {
        guard let chosen = channel, chosen.permission, context.permission == .denied else {
            step(.permission, .pass)
            return nil
        }
        let denied = chosen.name
        if let fallbackChannel = table.fallbackChoice {
            fallback = fallbackChannel.name
            channel = fallbackChannel
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
        let conditions = table.suppressWhen
        for index in conditions.indices where conditions[index]?.evaluateBool(context) ?? true {
            let source = conditions[index]?.source
            return Verdict(reason: table.suppressReasons[index], citation: table.suppressCitations[index],
                           detail: source.map { s in .lazy { "`\(s)` is true" } })
        }
        let count = conditions.count
        step(.suppression, .pass, detail: count == 0 ? nil : .counted(count, " rule(s) false"))
        return nil
    }

    // MARK: 6. Dedupe

    mutating func checkDedupe() -> Verdict? {
        // The key depends on the local delivery date, so timing is computed first (it is
        // pure); its verdicts are reported in the timing stage below.
        computeAlignment()
        let key = idempotencyKey(at: deliverAt)
        if let window = type.dedupe.flatMap({ $0.window ?? engine.bundle.dedupe.window }) {
            if context.ledger.contains(key: key, within: window, of: deliverAt) {
                return Verdict(reason: "duplicate", citation: table.cite.dedupe,
                               detail: .lazy { "`\(key)` within \(Self.duration(window))" })
            }
        } else if context.ledger.contains(key: key) {
            return Verdict(reason: "duplicate", citation: table.cite.key,
                           detail: .lazy { "`\(key)` is already in the history" })
        }
        step(.dedupe, .pass, detail: .quoted("key ", key))
        return nil
    }
}
