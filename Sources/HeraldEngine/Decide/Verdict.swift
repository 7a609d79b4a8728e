/// A verdict: the notification is suppressed (or batched) for a reason by a rule.
struct Verdict {
    var reason: VerdictReason
    /// The rule that spoke: the table's citation (a `Citation` built elsewhere is not one).
    var citation: TableCitation
    var cap: String?
    var detail: TraceText?
}
