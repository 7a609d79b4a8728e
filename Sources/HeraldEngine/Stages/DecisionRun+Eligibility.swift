import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 2. Eligibility

    mutating func checkEligibility() -> Verdict? {
        // Conditions of a type judged at delivery (or reading `delivery.*`) see the candidate
        // delivery instant from here on; other types skip this test only.
        if table.computesDelivery { judgeAtDelivery() }
        let outcome: Bool? = borrowing { table, context in table.eligibleEval?.evaluateBool(context) }
        guard let eligible = outcome else {
            step(.eligibility, .pass)
            return nil
        }
        guard eligible else {
            let source = type.eligible?.source ?? ""
            return Verdict(reason: .ineligible, citation: table.cite.eligible,
                           detail: .lazy { "`\(source)` is false" })
        }
        step(.eligibility, .pass, table.cite.eligible)
        return nil
    }
}
