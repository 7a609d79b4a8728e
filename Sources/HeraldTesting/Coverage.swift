public import HeraldPolicy
internal import HeraldContract
public import HeraldEngine

/// Which suppression rules, caps and catalog reason codes of a bundle some test reached.
///
/// A rule or cap is reached when it decided a test's decision (its id is the decision's `rule`
/// or `cap`, or a trace step's verdict names it); a reason when some decision carried it. A
/// rule that only ever passed is not reached: no test shows it doing its job.
public struct Coverage: Sendable {
    public struct Item: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case rule, cap, reason }
        public var kind: Kind
        public var id: String
    }

    public var declared: [Item]
    public var reached: Set<Item>

    public var unreached: [Item] { declared.filter { !reached.contains($0) } }

    /// - Parameters:
    ///   - decisions: every decision the tests made.
    ///   - prompts: every prompt decision; `prompt.wait` rules count as rules.
    public init(bundle: PolicyBundle, decisions: [Decision], prompts: [PromptDecision] = []) {
        var declared: [Item] = []
        for type in bundle.types {
            declared += type.suppress.map { Item(kind: .rule, id: $0.id) }
            declared += type.caps.map { Item(kind: .cap, id: $0.id) }
        }
        declared += bundle.suppress.map { Item(kind: .rule, id: $0.id) }
        declared += bundle.backoff.map { Item(kind: .rule, id: $0.id) }
        declared += bundle.caps.map { Item(kind: .cap, id: $0.id) }
        declared += bundle.prompt.wait.map { Item(kind: .rule, id: $0.id) }
        declared += bundle.reasons.map { Item(kind: .reason, id: $0.code) }
        self.declared = declared

        var reached: Set<Item> = []
        for decision in decisions {
            reached.insert(Item(kind: .reason, id: decision.reason))
            if let rule = decision.rule?.id {
                reached.insert(Item(kind: .rule, id: rule))
                reached.insert(Item(kind: .cap, id: rule))
            }
            if let cap = decision.cap { reached.insert(Item(kind: .cap, id: cap)) }
            for step in decision.trace where step.outcome == .verdict {
                if let rule = step.rule {
                    reached.insert(Item(kind: .rule, id: rule))
                    reached.insert(Item(kind: .cap, id: rule))
                }
            }
        }
        for prompt in prompts {
            reached.insert(Item(kind: .reason, id: prompt.reason))
            if let rule = prompt.rule?.id { reached.insert(Item(kind: .rule, id: rule)) }
        }
        let declaredSet = Set(declared)
        self.reached = reached.intersection(declaredSet)
    }

    /// `rules 12/12, caps 5/6, reasons 4/4`.
    public var summary: String {
        func ratio(_ kind: Item.Kind) -> String {
            let all = declared.filter { $0.kind == kind }
            return "\(all.filter(reached.contains).count)/\(all.count)"
        }
        return "rules \(ratio(.rule)), caps \(ratio(.cap)), reasons \(ratio(.reason))"
    }
}
