public import HeraldEngine

/// Deciding a request as read from JSON: its one conversion into the engine's inputs
/// (`inputs(_:)`, `userContext(_:)`), then the engine's typed call.
extension Engine {
    /// `decide(_:for:ledger:now:)` for a decide request.
    /// - Returns: the decision, or every problem with the request.
    public func decide(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int) -> Result<Decision, RequestErrors> {
        inputs(request).flatMap { decide($0.trigger, for: $0.user, ledger: ledger, now: now) }
    }

    /// `decideAll(_:for:ledger:now:)` for a decide request.
    public func decideAll(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int) -> Result<[Decision], RequestErrors> {
        inputs(request).flatMap { decideAll($0.trigger, for: $0.user, ledger: ledger, now: now) }
    }

    /// The typed inputs of a plan request: one user context, a trigger per candidate.
    /// - Returns: every problem, the candidates' with `candidates[i].` paths.
    public func inputs(_ request: PlanRequest) -> Result<(user: UserContext, triggers: [Trigger]), RequestErrors> {
        var errors = RequestErrors()
        let user = userContext(request.user, errors: &errors)
        var triggers: [Trigger] = []
        triggers.reserveCapacity(request.candidates.count)
        for (index, candidate) in request.candidates.enumerated() {
            var problems = RequestErrors()
            if let trigger = trigger(candidate.type, at: candidate.at, params: candidate.params, subject: candidate.subject,
                                     errors: &problems), problems.isEmpty {
                triggers.append(trigger)
            }
            errors.append(contentsOf: problems.prefixed("candidates[\(index)]."))
        }
        guard errors.isEmpty else { return .failure(errors) }
        return .success((user, triggers))
    }

    /// `plan(_:for:now:horizon:)` for a plan request.
    public func plan(_ request: PlanRequest) -> Result<Plan, RequestErrors> {
        inputs(request).flatMap { plan($0.triggers, for: $0.user, now: request.now, horizon: request.horizon) }
    }

    /// Plans a reconcile request's candidates and reconciles the plan with its pending entries.
    public func reconcile(_ request: ReconcileRequest) -> Result<(plan: Plan, reconciliation: Reconciliation), RequestErrors> {
        plan(request.plan).map { plan in (plan, reconcile(plan, pending: request.pending)) }
    }

    /// `prompt(for:now:)` for a prompt request.
    public func prompt(_ request: PromptRequest, now: Int) -> Result<PromptDecision, RequestErrors> {
        userContext(request.user).flatMap { prompt(for: $0, now: now) }
    }
}
