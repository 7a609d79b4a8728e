public import HeraldEngine

extension Explanation {
    /// The explanation as JSON: `{ "type", "explanations": [ … ] }`, one entry per decision (per
    /// channel of a `delivery: all` type) with its `channel`, `action`, `reason`, `deliverAt`,
    /// `rule`, `cap`, `batch` and `steps` — the trace, each cited step with `line`, the quoted
    /// YAML line (`33 | …`).
    public static func json(_ decisions: [Decision], sourceLine: SourceLines) -> JSON {
        let entries: [JSON] = decisions.map { decision in
            let full = decision.json()
            var members: [JSON.Member] = []
            for key in ["channel", "action", "reason", "deliverAt", "localDeliverAt", "fallback", "rule", "cap", "batch"] {
                if let value = full[key] { members.append(JSON.Member(key, value)) }
            }
            members.append(JSON.Member("steps", .array(decision.trace.map { step in
                var entry = step.json().members ?? []
                if let source = step.source, let quoted = quote(source, sourceLine) { entry.append(JSON.Member("line", .string(quoted))) }
                return .object(entry)
            })))
            return .object(members)
        }
        return ["type": .string(decisions.first?.type ?? ""), "explanations": .array(entries)]
    }
}
