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
        decideWithSubject(request, now: now).map(\.decision)
    }

    /// Decides one notification against a ledger the caller keeps: the service indexes a
    /// user's history once (`ledger(_:)`), inserts what it schedules, and decides many
    /// notifications without re-indexing. Same decision as `decide(_:now:)` when `ledger`
    /// indexes `request.history`; `request.history` is not read.
    /// - Complexity: O(log h) per cap and dedupe check for h indexed entries.
    public func decide(_ request: DecisionRequest, ledger: LedgerIndex, now: Int) -> Result<Decision, RequestErrors> {
        decideWithSubject(request, ledger: ledger, now: now).map(\.decision)
    }

    /// The ledger index `decide(_:ledger:now:)` expects for a user's history (types joined
    /// to this bundle's categories).
    /// - Complexity: O(h log h).
    public func ledger(_ history: [HistoryEntry]) -> LedgerIndex {
        LedgerIndex(history, categories: categoryOfType)
    }

    /// `decide`, also returning the subject the decision counted by (the type's `subject`
    /// template, else the request's), which a plan feeds back into the ledger.
    func decideWithSubject(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int) -> Result<(decision: Decision, subject: String?), RequestErrors> {
        guard let table = tables[request.type] else {
            var message = "unknown type `\(request.type)`"
            if let close = Suggestions.closest(to: request.type, in: bundle.types.names) { message += "; did you mean `\(close)`?" }
            return .failure(RequestErrors([RequestError(path: "type", message: message)]))
        }
        var errors: [RequestError] = []
        let prefs = preferences(request.prefs, errors: &errors)
        let fieldValues = schemaValues(request, errors: &errors)
        let params = paramValues(request, table: table, errors: &errors)
        guard errors.isEmpty, let prefs else { return .failure(RequestErrors(errors)) }
        let ledger = ledger ?? LedgerIndex(request.history, categories: categoryOfType)
        var context = RequestContext(engine: self, table: table, request: request, now: now, prefs: prefs,
                                     fieldValues: fieldValues, paramValues: params, ledger: ledger,
                                     subject: request.subject)
        if let template = table.type.subject {
            let rendered = template.render(renderValues(context))
            context.subject = rendered.isEmpty ? request.subject : rendered
        }
        var run = DecisionRun(engine: self, table: table, context: context)
        var decision = run.execute()
        decision.subject = context.subject
        return .success((decision, context.subject))
    }
}

/// A verdict: the notification is suppressed (or batched) for a reason by a rule.
struct Verdict {
    var reason: String
    var rule: String?
    var source: SourceSpan?
    var cap: String?
    var detail: String?
}

/// One decision in progress: the stages in order, each appending its trace step.
struct DecisionRun {
    let engine: Engine
    let table: TypeTable
    var context: RequestContext
    var trace: [TraceStep] = []
    var channel: Channel?
    var fallback: String?
    /// The aligned instant (timing's anchor plus offset), before any deferral.
    var aligned = 0
    /// The delivery instant as the stages move it.
    var deliverAt = 0
    var scheduleReason = "on_time"
    var timingRule: Decision.Rule?
    var batch: Decision.Batch?
    var quietDetail: String?
    /// What the caps stage did, for its trace step.
    var capNotes: [String] = []

    init(engine: Engine, table: TypeTable, context: RequestContext) {
        self.engine = engine
        self.table = table
        self.context = context
    }

    var type: NotificationType { table.type }
    var request: DecisionRequest { context.request }
    var zone: Zone { context.prefs.zone }

    static let stages: [TraceStep.Stage] = [
        .request, .eligibility, .preferences, .permission, .suppression, .dedupe, .timing, .caps, .batching, .render,
    ]

    mutating func step(_ stage: TraceStep.Stage, _ outcome: TraceStep.Outcome, rule: String? = nil,
                       source: SourceSpan? = nil, detail: String? = nil) {
        trace.append(TraceStep(stage: stage, outcome: outcome, rule: rule, source: source?.citation, detail: detail))
    }

    mutating func execute() -> Decision {
        let stages: [(TraceStep.Stage, (inout DecisionRun) -> Verdict?)] = [
            (.request, { $0.checkRequest() }),
            (.eligibility, { $0.checkEligibility() }),
            (.preferences, { $0.checkPreferences() }),
            (.permission, { $0.checkPermission() }),
            (.suppression, { $0.checkSuppression() }),
            (.dedupe, { $0.checkDedupe() }),
            (.timing, { $0.checkTiming() }),
            (.caps, { $0.checkCaps() }),
            (.batching, { $0.checkBatching() }),
        ]
        for (index, (stage, run)) in stages.enumerated() {
            if let verdict = run(&self) {
                if verdict.reason == "batched", let batch {
                    return finishBatch(batch, verdict: verdict, after: index)
                }
                step(stage, .verdict, rule: verdict.rule, source: verdict.source, detail: verdict.detail)
                for later in Self.stages[(index + 1)...] { step(later, .skip) }
                return suppressed(verdict)
            }
        }
        return scheduled()
    }

    func decision(_ action: Decision.Action, reason: String) -> Decision {
        Decision(action: action, reason: reason, type: type.id, category: type.category,
                 trace: trace, policy: engine.policy)
    }

    func suppressed(_ verdict: Verdict) -> Decision {
        var d = decision(.suppress, reason: verdict.reason)
        d.channel = channel?.name
        d.fallback = fallback
        d.rule = verdict.source.map { Decision.Rule(id: verdict.rule ?? "", source: $0.citation) }
        d.cap = verdict.cap
        return d
    }

    mutating func scheduled() -> Decision {
        let notification = render()
        step(.render, .pass, detail: "on `\(channel?.name ?? "")`")
        var d = decision(.schedule, reason: scheduleReason)
        d.deliverAt = deliverAt
        d.utcOffset = zone.offset(at: deliverAt)
        d.channel = channel?.name
        d.fallback = fallback
        d.key = idempotencyKey(at: deliverAt)
        d.notification = notification
        d.rule = timingRule
        d.trace = trace
        return d
    }

    mutating func finishBatch(_ batch: Decision.Batch, verdict: Verdict, after index: Int) -> Decision {
        let stage = Self.stages[index]
        step(stage, .verdict, rule: verdict.rule, source: verdict.source, detail: verdict.detail)
        for later in Self.stages[(index + 1)...] where later != .render { step(later, .skip) }
        let notification = render()
        step(.render, .pass, detail: "member notification for flush")
        var d = decision(.batch, reason: "batched")
        d.deliverAt = batch.flushAt
        d.utcOffset = zone.offset(at: batch.flushAt)
        d.channel = channel?.name
        d.fallback = fallback
        d.key = idempotencyKey(at: deliverAt)
        d.batch = batch
        d.notification = notification
        d.rule = verdict.source.map { Decision.Rule(id: verdict.rule ?? "", source: $0.citation) }
        d.cap = verdict.cap
        d.trace = trace
        return d
    }

    // MARK: 1. Request check

    mutating func checkRequest() -> Verdict? {
        for path in table.requiredPaths where context.value(at: path) == nil {
            return Verdict(reason: "missing_data", rule: type.id, source: type.span,
                           detail: "`\(path.joined(separator: "."))` is absent")
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
        let rule = "\(type.id).eligible"
        guard eligible.evaluateBool(context) else {
            return Verdict(reason: "ineligible", rule: rule, source: eligible.span, detail: "`\(eligible.source)` is false")
        }
        step(.eligibility, .pass, rule: rule, source: eligible.span)
        return nil
    }

    // MARK: 3. Preferences

    mutating func checkPreferences() -> Verdict? {
        let input = context.prefs.input
        let locked = type.locked || (table.category?.locked ?? false)
        let categorySpan = table.category?.span
        if context.prefs.pausedAll && !locked {
            return Verdict(reason: "paused_all", rule: "prefs.pausedAll", source: engine.bundle.defaults.span ?? type.span,
                           detail: "the user paused all notifications")
        }
        if let requires = table.category?.requires, !requires.evaluateBool(context) {
            return Verdict(reason: "category_off", rule: "\(type.category).requires", source: requires.span,
                           detail: "`\(requires.source)` is false")
        }
        if !locked && !engine.categoryEnabled(type.category, prefs: input) {
            return Verdict(reason: "category_off", rule: "prefs.categories.\(type.category)", source: categorySpan,
                           detail: "category `\(type.category)` is off")
        }
        if !type.locked && !(input.types[type.id] ?? type.defaultOn) {
            return Verdict(reason: "type_off", rule: "prefs.types.\(type.id)", source: type.span,
                           detail: input.types[type.id] == nil ? "`\(type.id)` is off by default" : "the user turned `\(type.id)` off")
        }
        // The first channel whose master toggle and category-channel toggle are on.
        // A locked type or category (security alerts, one-time codes) is exempt from every
        // preference switch: pause all, the category toggles and the channel master toggles.
        channel = table.channels.first { ch in
            guard locked || engine.channelEnabled(ch.name, prefs: input) else { return false }
            let key = "\(type.category).\(ch.name)"
            let categoryDefault = table.category?.channels.first { $0.channel == ch.name }?.on ?? true
            return locked || (input.categories[key] ?? categoryDefault)
        }
        if channel == nil {
            return Verdict(reason: "channel_off", rule: "\(type.id).channels", source: type.span,
                           detail: "every channel of `\(type.id)` is off: " + type.channels.joined(separator: ", "))
        }
        step(.preferences, .pass, detail: "channel `\(channel!.name)`")
        return nil
    }

    // MARK: 4. Permission

    mutating func checkPermission() -> Verdict? {
        guard let chosen = channel, chosen.permission, context.request.permission == .denied else {
            step(.permission, .pass)
            return nil
        }
        if let fallbackChannel = table.fallback {
            fallback = fallbackChannel.name
            channel = fallbackChannel
            step(.permission, .pass, rule: "\(type.id).fallback", source: type.span,
                 detail: "permission denied for `\(chosen.name)`; falling back to `\(fallbackChannel.name)`")
            return nil
        }
        return Verdict(reason: "system_denied", rule: "\(type.id).channels", source: type.span,
                       detail: "OS permission denied for `\(chosen.name)` and no fallback")
    }

    // MARK: 5. Suppression

    mutating func checkSuppression() -> Verdict? {
        for rule in table.suppress {
            if rule.when?.evaluateBool(context) ?? true {
                return Verdict(reason: rule.reason, rule: rule.id, source: rule.span,
                               detail: rule.when.map { "`\($0.source)` is true" })
            }
        }
        step(.suppression, .pass, detail: table.suppress.isEmpty ? nil : "\(table.suppress.count) rule(s) false")
        return nil
    }

    // MARK: 6. Dedupe

    mutating func checkDedupe() -> Verdict? {
        // The key depends on the local delivery date, so timing is computed first (it is
        // pure); its verdicts are reported in the timing stage below.
        computeAlignment()
        let key = idempotencyKey(at: deliverAt)
        let keyRule = type.idempotencyKey ?? type.dedupe?.key
        if let window = type.dedupe.flatMap({ $0.window ?? engine.bundle.dedupe.window }) {
            if context.ledger.contains(key: key, within: window, of: deliverAt) {
                return Verdict(reason: "duplicate", rule: "\(type.id).dedupe", source: type.dedupe?.span,
                               detail: "`\(key)` within \(Self.duration(window))")
            }
        } else if context.ledger.contains(key: key) {
            return Verdict(reason: "duplicate", rule: "\(type.id).key", source: keyRule?.span ?? type.span,
                           detail: "`\(key)` is already in the history")
        }
        step(.dedupe, .pass, detail: "key `\(key)`")
        return nil
    }
}
