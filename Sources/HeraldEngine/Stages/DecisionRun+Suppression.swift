import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 5. Suppression

    mutating func checkSuppression() -> Verdict? {
        let count = table.suppressWhen.count
        // The first rule whose condition holds (no condition: always).
        let hit: Int? = borrowing { table, context in
            table.suppressEvals.indices.first { table.suppressEvals[$0]?.evaluateBool(context) ?? true }
        }
        if let index = hit {
            let source = table.suppressWhen[index]?.source
            return Verdict(reason: .suppressRule(index), citation: table.suppressCitations[index],
                           detail: source.map { s in .lazy { "`\(s)` is true" } })
        }
        step(.suppression, .pass, note: count == 0 ? .none : .rulesFalse(Int32(truncatingIfNeeded: count)))
        return nil
    }
}
