import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 6. Dedupe

    mutating func checkDedupe() -> Verdict? {
        // The key depends on the local delivery date, so timing is computed first (it is
        // pure); its verdicts are reported in the timing stage below.
        computeAlignment()
        // A trigger already past is decided by timing (`missed`), not by its key, which
        // would be the key of the day it is decided on.
        if isMissed {
            step(.dedupe, .skip)
            return nil
        }
        let key = idempotencyKey(at: deliverAt)
        if let window = type.dedupe.flatMap({ $0.window ?? engine.bundle.dedupe.window }) {
            if ledger.contains(key: key, within: window, of: deliverAt) {
                return Verdict(reason: .duplicate, citation: table.cite.dedupe,
                               detail: .lazy { "`\(key)` within \(TraceFormat.duration(window))" })
            }
        } else if ledger.contains(key: key) {
            return Verdict(reason: .duplicate, citation: table.cite.key,
                           detail: .lazy { "`\(key)` is already in the history" })
        }
        facts.dedupeKey = key
        step(.dedupe, .pass, note: .key)
        return nil
    }
}
