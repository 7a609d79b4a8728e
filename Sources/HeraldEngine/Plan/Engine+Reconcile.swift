extension Engine {
    /// What to add, keep, update and cancel so the pending notifications match `plan`.
    ///
    /// Identity is the key: a pending entry is matched with the plan's delivery of the same key
    /// (a delivered decision's idempotency key, or a flushed batch's key). Matched, it is kept
    /// when its content (`deliverAt`, and the copy it records) is what the plan would deliver,
    /// else updated; unmatched, it is cancelled, as is a second pending entry of one key. A
    /// delivery with no pending entry of its key is added. Applying the result
    /// (`Reconciliation.applied`) and reconciling again gives no change.
    ///
    /// `plan` must be made from the user's history without the pending entries (a reconcile
    /// request's `history` holds no `scheduled` entries): fed as history, a pending entry would
    /// make its own replacement a `duplicate`.
    /// - Complexity: O(p + d) for p pending entries and d deliveries.
    public func reconcile(_ plan: Plan, pending: [PendingEntry]) -> Reconciliation {
        var wanted: [String: Decision] = [:]
        var order: [String] = []
        for d in plan.deliveries {
            guard let key = d.key, wanted[key] == nil else { continue }
            wanted[key] = d
            order.append(key)
        }
        var result = Reconciliation()
        var matched: Set<String> = []
        for entry in pending {
            guard let decision = wanted[entry.key], matched.insert(entry.key).inserted else {
                result.cancel.append(entry)
                continue
            }
            let changed = entry.changes(to: decision)
            if changed.isEmpty {
                result.keep.append(entry)
            } else {
                result.update.append(.init(pending: entry, decision: decision, changed: changed))
            }
        }
        for key in order where !matched.contains(key) { result.add.append(wanted[key]!) }
        return result
    }

    /// Plans `triggers` for `user` and reconciles the plan with the pending entries.
    /// - Parameter user: the user's context; its history holds only what already happened
    ///   (see `reconcile(_:pending:)`).
    /// - Returns: the plan and the reconciliation, or every problem with the candidates.
    public func reconcile(_ triggers: [Trigger], for user: UserContext, pending: [PendingEntry], now: Int,
                          horizon: Int?) -> Result<(plan: Plan, reconciliation: Reconciliation), RequestErrors> {
        plan(triggers, for: user, now: now, horizon: horizon).map { plan in (plan, reconcile(plan, pending: pending)) }
    }
}
