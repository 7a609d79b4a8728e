import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// Decides one notification: schedule, suppress or batch, with the reason, the rule that
    /// decided and a trace of every stage.
    ///
    /// Pure and deterministic: the same trigger, user context, `now` and bundle give the same
    /// decision. Stages run in order and the first verdict wins: request check, eligibility,
    /// preferences, permission, suppression, dedupe, timing, caps, batching, render (see
    /// docs/decisions.md). Absent data is not an error but the decision `missing_data`.
    /// - Parameters:
    ///   - trigger: the notification (type, instant, params, subject).
    ///   - user: the user's context, from this engine (`userContext(…)`, or HeraldContract).
    ///   - ledger: a ledger the caller keeps (`ledger(_:)`, with what it scheduled since
    ///     inserted), else nil to index `user.history`.
    ///   - now: the caller's clock.
    /// - Returns: the decision, or the request error of a trigger or context made by another
    ///   engine, or of a delivery instant Herald cannot write.
    /// - Complexity: O(h log h) for h history entries (the ledger index, when not given), then
    ///   O(log h) per cap.
    public func decide(_ trigger: Trigger, for user: UserContext, ledger: LedgerIndex? = nil, now: Int) -> Result<Decision, RequestErrors> {
        decideOne(trigger, user: user, ledger: ledger, now: now)
    }

    /// Decides one trigger on every channel it delivers on: one decision per channel of a
    /// `delivery: all` type (in `channels` order), each with its own channel toggles,
    /// permission and idempotency key (`…:{channel}`); for any other type, the one decision
    /// of `decide`, unchanged. The channels' decisions are siblings: each is decided against the
    /// same history, none counts against another (docs/decisions.md, Several channels).
    /// - Returns: the decisions (never empty), or the request error `decide` gives.
    /// - Complexity: c times `decide` for c channels of a `delivery: all` type.
    public func decideAll(_ trigger: Trigger, for user: UserContext, ledger: LedgerIndex? = nil, now: Int) -> Result<[Decision], RequestErrors> {
        guard let table = tables[trigger.type], table.deliversAll else {
            return decideOne(trigger, user: user, ledger: ledger, now: now).map { [$0] }
        }
        // One index for every channel's run, as a plan's ledger is.
        let ledger = ledger ?? self.ledger(user.history)
        var decisions: [Decision] = []
        decisions.reserveCapacity(table.channelChoices.count)
        for index in table.channelChoices.indices {
            switch decideOne(trigger, user: user, ledger: ledger, now: now, channel: Int16(index)) {
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

    /// The ledger index `decide(_:for:ledger:now:)` expects for a user's history (types joined
    /// to this bundle's categories).
    /// - Complexity: O(h log h).
    public func ledger(_ history: [HistoryEntry]) -> LedgerIndex {
        LedgerIndex(history, categories: categoryOfType)
    }

    /// `decide` on one channel of a `delivery: all` type (`channel` ≥ 0), or as the type
    /// chooses (-1). The decision's `subject` is what it counted by (the type's `subject`
    /// template, else the trigger's), which a plan feeds back into the ledger.
    func decideOne(_ trigger: Trigger, user: UserContext, ledger: LedgerIndex?, now: Int, channel: Int16 = -1) -> Result<Decision, RequestErrors> {
        guard let table = tables[trigger.type] else { return .failure(unknownType(trigger.type)) }
        guard user.schema == ObjectIdentifier(core), trigger.params.count == table.paramNames.count else {
            return .failure(Self.foreignContext)
        }
        return withContext(trigger, user: user, table: table, ledger: ledger, now: now) { context in
            decide(context, table: table, channel: channel)
        }
    }

    package func unknownType(_ type: String) -> RequestErrors {
        var message = "unknown type `\(type)`"
        if let close = Suggestions.closest(to: type, in: bundle.types.names) { message += "; did you mean `\(close)`?" }
        return RequestErrors([RequestError(path: "type", message: message)])
    }

    /// The stages, once the context is made.
    private func decide(_ context: RequestContext, table: TypeTable, channel: Int16) -> Result<Decision, RequestErrors> {
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
        context.withComputedSlots { slots in
            for (index, value) in values.enumerated() { slots.set(index, value) }
        }
    }

    /// The request error of a user context made by another engine (a policy reloaded between
    /// reading a request and deciding it).
    static var foreignContext: RequestErrors {
        RequestErrors([RequestError(path: "user", message: "this user context or trigger was made for another policy's engine; read the request again")])
    }

    /// The request error of a decision whose delivery instant Herald cannot write.
    static var unwritable: RequestErrors {
        RequestErrors([RequestError(path: "at", message: "the decision would deliver outside 0001-01-01T00:00:00Z "
                                        + "through 9999-12-31T23:59:59Z, the instants Herald can write")])
    }
}
