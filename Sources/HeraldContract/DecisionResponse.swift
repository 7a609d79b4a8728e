public import HeraldEngine

/// The response to one decide request, as `herald decide` prints it and `herald serve` answers
/// and stores it: the one writer of it.
public enum DecisionResponse {
    /// The JSON of one trigger's decisions, as `herald decide` prints it: the decision, or for a
    /// `delivery: all` type `{ "type", "delivery": "all", "decisions": [...] }`.
    public static func json(_ decisions: [Decision], engine: Engine) -> JSON {
        guard let first = decisions.first, engine.deliversAll(first.type) else {
            return decisions.first?.json() ?? .array([])
        }
        return ["type": .string(first.type), "delivery": .string("all"), "decisions": .array(decisions.map { $0.json() })]
    }

    /// `json(_:engine:).serialized()`, written without building the JSON tree (the same
    /// bytes: `Decision.compactJSON()`).
    public static func text(_ decisions: [Decision], engine: Engine) -> String {
        guard let first = decisions.first, engine.deliversAll(first.type) else {
            return decisions.first?.compactJSON() ?? "[]"
        }
        // The keys in byte order: decisions, delivery, type.
        var text = #"{"decisions":["#
        for (index, decision) in decisions.enumerated() {
            if index > 0 { text += "," }
            text += decision.compactJSON()
        }
        text += #"],"delivery":"all","type":"#
        text += JSON.string(first.type).serialized()
        text += "}"
        return text
    }
}
