/// A verdict: the notification is suppressed (or batched) for a reason by a rule.
struct Verdict {
    var reason: String
    /// The rule that spoke and where it is written.
    var citation: Citation?
    var cap: String?
    var detail: TraceText?
}
