import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 9. Batching

    mutating func checkBatching() -> Verdict? {
        guard table.batching != nil else {
            step(.batching, .skip)
            return nil
        }
        // The group and its members are read where the table keeps them.
        let at = deliverAt
        let found = borrowing { table, _ in
            withBorrowed(table.batching!) { plan in
                batchSlot(plan, at: at, forced: false, members: table.batchMembers)
            }
        }
        if let slot = found {
            batch = slot
            let zone = zone
            return Verdict(reason: .batched, citation: table.cite.batching,
                           detail: .lazy { "joins `\(slot.key)`, flushes at \(TraceFormat.localClock(slot.flushAt, zone))" })
        }
        step(.batching, .pass, table.cite.batching, note: .batchingWindow)
        return nil
    }

    /// The batch a member at `t` belongs to: an open batch of the group in the history whose
    /// window holds `t`; else (not forced) a new batch with a member scheduled within the
    /// window; else (forced by a cap) a new batch starting at `t`.
    mutating func batchSlot(_ group: BatchPlan, at t: Int, forced: Bool) -> Decision.Batch? {
        batchSlot(group, at: t, forced: forced, members: table.batchMembers)
    }

    /// `batchSlot(_:at:forced:)` with the group's member types given.
    mutating func batchSlot(_ group: BatchPlan, at t: Int, forced: Bool, members: borrowing [String]) -> Decision.Batch? {
        var best: Int?
        if ledger.hasBatches {
            let prefix = "\(group.name):\(context.userID):"
            for key in ledger.batchKeys(withPrefix: prefix) {
                guard let start = ContractTime.parseInstant(String(key.dropFirst(prefix.count))),
                      start <= t, t < start + group.window
                else { continue }
                best = Swift.min(best ?? Int.max, start)
            }
        }
        func slot(_ start: Int) -> Decision.Batch {
            Decision.Batch(group: group.name, key: "\(group.name):\(context.userID):" + ContractTime.format(start),
                           flushAt: start + group.window)
        }
        if let start = best { return slot(start) }
        if !forced {
            var first: Int?
            let window = group.window
            for index in members.indices {
                if let d = ledger.firstPending(type: members[index], after: t - window, before: t + window) {
                    first = Swift.min(first ?? Int.max, d)
                }
            }
            guard let other = first else { return nil }
            return slot(Swift.min(other, t))
        }
        return slot(t)
    }

    /// A digest's slot: its next local time at or after `t`, keyed by that local date.
    func digestSlot(_ digest: Digest, at t: Int) -> Decision.Batch {
        let flush = zone.nextOccurrence(of: digest.at / 60, atOrAfter: t)
        let date = CivilDate(days: zone.localDate(of: flush))
        return Decision.Batch(group: digest.name, key: "\(digest.name):\(context.userID):\(date)", flushAt: flush)
    }
}
