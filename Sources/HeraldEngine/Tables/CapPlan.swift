import HeraldPolicy

/// One cap as a type checks it: the cap, its scopes when they depend only on the bundle,
/// and what its verdicts cite. A class, so the caps stage passes references, not copies.
/// Owned by its type's table (`TypeTable.capPlans`), whose citations it cites.
final class CapPlan: Sendable {
    let cap: Cap
    /// nil: resolved per request (channel and subject caps).
    let fixedScopes: [LedgerScope.Key]?
    /// `fixedScopes` in memory this plan owns (read without counting a reference; empty
    /// when `fixedScopes` is nil).
    let fixedScopeBuffer: PinnedBuffer<LedgerScope.Key>
    /// `fixedScopes` is not nil.
    let hasFixedScopes: Bool
    /// The cap counts the default statuses, so the request's ledger answers it.
    let defaultCounts: Bool
    /// `cooldown` (no `per`) or `rateLimited`.
    let reason: VerdictReason
    /// The cap's id and where it is written (its type table's citation).
    let citation: TableCitation

    /// The cap's fields the caps stage reads on every decision, copied out once so the stage
    /// never copies the whole `Cap`.
    let id: String
    /// The cap's `max` when it is a number.
    let fixedMax: Int?
    /// The cap's `max` when it is an expression, evaluated through the one `cap` keeps.
    let maxEval: UnownedExpression?
    let per: CapWindow?
    let cooldown: Int?
    /// The cooldown in local calendar days, when it is written in days (`Cap.cooldownDays`).
    let cooldownDays: Int?
    let over: CapOverflow

    init(cap: Cap, fixedScopes: [LedgerScope]?, citation: TableCitation) {
        self.cap = cap
        id = cap.id
        switch cap.max {
        case .fixed(let n)?:
            fixedMax = n
            maxEval = nil
        case .expression(let e)?:
            fixedMax = nil
            maxEval = UnownedExpression(keptAlongside: e)
        case nil:
            fixedMax = nil
            maxEval = nil
        }
        per = cap.per
        cooldown = cap.cooldown
        cooldownDays = cap.cooldownDays
        over = cap.over
        self.fixedScopes = fixedScopes?.map(LedgerScope.Key.init)
        fixedScopeBuffer = PinnedBuffer(self.fixedScopes ?? [])
        hasFixedScopes = fixedScopes != nil
        defaultCounts = cap.counts == CountedStatus.defaults
        reason = cap.per == nil ? .cooldown : .rateLimited
        self.citation = citation
    }
}
