/// The engine's answer to a `PromptRequest`: `ask` (the app may show its soft prompt and then
/// the OS dialog) or `wait`, with a reason, the rule that decided and a trace.
///
/// `json()` renders it in the contract's shape (docs/decisions.md, Prompt); equal decisions
/// give byte-identical text.
public struct PromptDecision: Sendable, Equatable {
    public enum Answer: String, Sendable, Hashable, CaseIterable {
        case ask, wait
    }

    public var prompt: Answer
    /// `eligible` for `ask`; a built-in wait reason (`already_granted`, `denied_before`,
    /// `missing_data`) or the wait rule's catalog reason for `wait`.
    public var reason: String
    /// The wait rule that decided (with its place in the YAML); absent for `ask` and the
    /// built-in permission waits.
    public var rule: Decision.Rule?
    /// The permission check, then one step per wait rule in order.
    public var trace: [TraceStep]
    public var policy: Decision.Policy

    public init(prompt: Answer, reason: String, rule: Decision.Rule? = nil, trace: [TraceStep] = [], policy: Decision.Policy) {
        self.prompt = prompt
        self.reason = reason
        self.rule = rule
        self.trace = trace
        self.policy = policy
    }
}
