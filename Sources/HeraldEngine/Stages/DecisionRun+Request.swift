import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 1. Request check

    mutating func checkRequest() -> Verdict? {
        let missing: Int? = borrowing { table, context in table.requiredReads.firstIndex { context.value($0) == nil } }
        if let index = missing {
            let path = table.requiredPaths[index]
            return Verdict(reason: .missingData, citation: table.cite.missingData,
                           detail: .lazy { "`\(path.joined(separator: "."))` is absent" })
        }
        step(.request, .pass)
        return nil
    }
}
