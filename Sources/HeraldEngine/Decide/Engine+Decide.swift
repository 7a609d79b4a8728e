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

    /// Decides one trigger on every channel it delivers on: one decision per channel of a
    /// `delivery: all` type (in `channels` order), each with its own channel toggles,
    /// permission and idempotency key (`…:{channel}`); for any other type, the one decision
    /// of `decide(_:now:)`, unchanged. The channels' decisions are siblings: each is decided
    /// against the same history, none counts against another (docs/decisions.md, Several
    /// channels).
    /// - Parameters:
    ///   - request: the trigger with the user's prefs, state, params and history.
    ///   - ledger: a ledger the caller keeps (as `decide(_:ledger:now:)`), else nil to index
    ///     `request.history`.
    ///   - now: the caller's clock.
    /// - Returns: the decisions (never empty), or every problem with the request.
    /// - Complexity: c times `decide(_:now:)` for c channels of a `delivery: all` type.
    public func decideAll(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int) -> Result<[Decision], RequestErrors> {
        guard let table = tables[request.type], table.deliversAll else {
            return decideOne(request, ledger: ledger, now: now).map { [$0] }
        }
        // One index for every channel's run, as a plan's ledger is.
        let ledger = ledger ?? self.ledger(request.history)
        var decisions: [Decision] = []
        decisions.reserveCapacity(table.channelChoices.count)
        for index in table.channelChoices.indices {
            switch decideOne(request, ledger: ledger, now: now, channel: Int16(index)) {
            case .success(let decision): decisions.append(decision)
            case .failure(let errors): return .failure(errors)
            }
        }
        return .success(decisions)
    }

    /// Whether `type` is a `delivery: all` type (its decisions come from `decideAll`).
    public func deliversAll(_ type: String) -> Bool {
        tables[type]?.deliversAll ?? false
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
    func decideOne(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int, channel: Int16 = -1) -> Result<Decision, RequestErrors> {
        guard let table = tables[request.type] else { return .failure(unknownType(request.type)) }
        var errors: [RequestError] = []
        let prefs = preferences(request.prefs, errors: &errors)
        return withContext(request, table: table, prefs: prefs, ledger: ledger, now: now) { context in
            context.userID = context.withFieldSlots { slots in
                convertFields(state: request.state, user: request.user, into: slots, errors: &errors)
            }
            return decide(context, table: table, params: request.params, errors: errors, channel: channel)
        }
    }

    /// `decideOne`, reusing the effective preferences and converted `state`/`user` values of
    /// the previous request when this one's are equal (a plan's candidates usually share
    /// them); `reuse` then holds this request's.
    func decideOne(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int, channel: Int16 = -1,
                   reuse: inout RequestConversions) -> Result<Decision, RequestErrors> {
        guard let table = tables[request.type] else { return .failure(unknownType(request.type)) }
        var errors: [RequestError] = []
        let prefs: EffectivePreferences
        if reuse.hasPrefs, reuse.prefsInput == request.prefs {
            prefs = reuse.prefs
            // Equal: keep this request's copy, which the next request built from the same
            // values shares, so that comparison is by identity, not a walk.
            reuse.prefsInput = request.prefs
        } else {
            prefs = preferences(request.prefs, errors: &errors)
            reuse.hasPrefs = errors.isEmpty
            if reuse.hasPrefs {
                reuse.prefsInput = request.prefs
                reuse.prefs = prefs
            }
        }
        return withContext(request, table: table, prefs: prefs, ledger: ledger, now: now) { context in
            context.withFieldSlots { slots in
                if reuse.hasFields, reuse.state == request.state, reuse.user == request.user {
                    // As with the preferences: the next comparison is by identity.
                    reuse.state = request.state
                    reuse.user = request.user
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
                        reuse.fields = slots.values
                    }
                }
            }
            return decide(context, table: table, params: request.params, errors: errors, channel: channel)
        }
    }

    func unknownType(_ type: String) -> RequestErrors {
        var message = "unknown type `\(type)`"
        if let close = Suggestions.closest(to: type, in: bundle.types.names) { message += "; did you mean `\(close)`?" }
        return RequestErrors([RequestError(path: "type", message: message)])
    }

    /// The rest of a decision once preferences and `state`/`user` are converted: the params,
    /// then the stages. (Inlined into both `decideOne`s, as the optimizer chose before the
    /// range check below made it just too large to.)
    @inline(__always)
    private func decide(_ context: RequestContext, table: TypeTable, params: JSON,
                        errors: consuming [RequestError], channel: Int16) -> Result<Decision, RequestErrors> {
        var errors = errors
        context.withParamSlots { convertParams(params, table: table, into: $0, errors: &errors) }
        guard errors.isEmpty else { return .failure(RequestErrors(errors)) }
        if !table.computedEvals.isEmpty { computeValues(context, table: table) }
        if let template = table.subjectTemplate {
            let rendered = template.render(context, localDate: nil)
            if !rendered.isEmpty { context.renderedSubject = rendered }
        }
        var run = DecisionRun(context: context, table: table)
        run.onlyChannel = channel
        let decision = run.execute()
        // A decision would carry an instant RFC 3339 cannot write (a trigger late on
        // 9999-12-31 whose reminder time falls in year 10000): a request error, so that every
        // instant a decision writes lies in `RFC3339.instants` and reads back as a request.
        // (A batch decision's `deliverAt` is its batch's `flushAt`; its key's start is at or
        // before that and at or after `now`.)
        if let deliverAt = decision.deliverAt, !RFC3339.instants.contains(deliverAt) { return .failure(Self.unwritable) }
        return .success(decision)
    }

    /// Evaluates the type's `computed:` values into their slots, after the params (each is
    /// evaluated before any is stored, so none reads another).
    private func computeValues(_ context: RequestContext, table: TypeTable) {
        let values = table.computedEvals.map { $0.evaluate(context) }
        let base = table.paramNames.count
        context.withParamSlots { slots in
            for (index, value) in values.enumerated() { slots.set(base + index, value) }
        }
    }

    /// The request error of a decision whose delivery instant Herald cannot write.
    static var unwritable: RequestErrors {
        RequestErrors([RequestError(path: "at", message: "the decision would deliver outside 0001-01-01T00:00:00Z "
                                        + "through 9999-12-31T23:59:59Z, the instants Herald can write")])
    }
}
