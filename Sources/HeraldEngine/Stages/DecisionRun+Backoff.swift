import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 8a. Back-offs (the start of the caps stage)

    /// The first back-off in force at `deliverAt` whose effect holds the notification back:
    /// `suppress`, or a cap of the scope that is full. Runs only for types a back-off matches.
    func checkBackoffs() -> Verdict? {
        let t = deliverAt
        for index in table.backoffs.indices {
            let plan = table.backoffs[index]
            guard let began = plan.start(in: ledger, at: t) else { continue }
            let zone = zone
            let until = began + plan.backoff.duration
            switch plan.backoff.effect {
            case .suppress:
                return Verdict(reason: .backoff(index), citation: plan.citation, detail: .lazy {
                    "backed off since \(TraceFormat.localClock(began, zone)) until \(TraceFormat.localClock(until, zone))"
                })
            case .cap(let max, let per):
                let used = ledger.count(plan.scope, in: countRange(per, at: t))
                guard used >= max else { continue }
                return Verdict(reason: .backoff(index), citation: plan.citation, detail: .lazy {
                    "backed off since \(TraceFormat.localClock(began, zone)) until \(TraceFormat.localClock(until, zone)): \(used) of \(max) per \(TraceFormat.describe(per)) used"
                })
            }
        }
        return nil
    }
}
