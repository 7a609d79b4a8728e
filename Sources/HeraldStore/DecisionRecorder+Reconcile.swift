public import HeraldContract
internal import HeraldEngine

extension DecisionRecorder {
    /// Plans the candidates against the user's stored ledger, reconciles the plan with the
    /// user's pending entries (live `scheduled` entries delivering at or after `now`), and
    /// records the result in one unit of work: additions inserted, updates replaced by key,
    /// cancellations marked `cancelled`.
    /// - Parameters:
    ///   - request: the user and the candidates (the request's `history` is not read), `now`, `horizon`.
    ///   - idempotencyKey, deadline: as for `decide`.
    /// - Returns: the reconciliation's JSON (as `herald reconcile` prints it, compact).
    /// - Throws: `RequestErrors` for a bad request; `StoreError`.
    public func reconcile(_ request: PlanRequest, idempotencyKey: String? = nil,
                          deadline: ContinuousClock.Instant? = nil) async throws -> RecordedDecision {
        guard !request.candidates.isEmpty else {
            throw RequestErrors([RequestError(path: "candidates", message: "a recorded plan needs at least one candidate")])
        }
        guard !request.user.id.isEmpty else { throw StoreError.missingUser }
        let inputs = try engine.inputs(request).get()
        let user = inputs.user
        let engine = self.engine
        let earliest = inputs.triggers.map(\.at).min() ?? request.now
        let read = window.read(around: min(request.now, earliest))
        let commit = try await store.commit(user: user.id, read: read, requestKey: idempotencyKey, now: request.now) { records in
            try Self.check(deadline)
            let pending = records.filter { $0.entry.status == .scheduled && $0.entry.deliverAt >= request.now }
            let pendingKeys = Set(pending.map(\.entry.key))
            let history = records.filter { $0.isLive && !pendingKeys.contains($0.entry.key) }.map(\.entry)
            let plan: Plan
            switch engine.plan(inputs.triggers, for: user.with(history: history), now: request.now, horizon: request.horizon) {
            case .failure(let errors): throw errors
            case .success(let made): plan = made
            }
            let result = engine.reconcile(plan, pending: pending.map { PendingEntry($0.entry) })
            let proposal = LedgerProposal(
                insert: result.add.compactMap { $0.historyEntry(subject: $0.subject) },
                update: result.update.compactMap { $0.decision.historyEntry(subject: $0.decision.subject) },
                cancel: result.cancel.map(\.key),
                response: result.json().serialized())
            return (proposal, plan.decisions)
        }
        return RecordedDecision(response: commit.response, replayed: commit.replayed, decisions: commit.value ?? [],
                                recorded: commit.inserted)
    }
}
