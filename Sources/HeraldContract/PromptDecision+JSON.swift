public import HeraldEngine

extension PromptDecision {
    /// `{"prompt", "reason", "rule"?, "trace", "policy"}`; an absent rule is left out.
    public func json() -> JSON {
        var members = [JSON.Member("prompt", .string(prompt.rawValue)), JSON.Member("reason", .string(reason))]
        if let rule { members.append(JSON.Member("rule", ["id": .string(rule.id), "source": .string(rule.source)])) }
        members.append(JSON.Member("trace", .array(trace.map { $0.json() })))
        members.append(JSON.Member("policy", ["name": .string(policy.name), "digest": .string(policy.digest)]))
        return .object(members)
    }
}
