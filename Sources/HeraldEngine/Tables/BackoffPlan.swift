import HeraldPolicy

/// One back-off as a type checks it: the entry, the ledger scope it counts for this type (its
/// category or itself) and its citation in the type's table.
final class BackoffPlan: Sendable {
    let backoff: Backoff
    let scope: LedgerScope
    let citation: TableCitation

    init(_ backoff: Backoff, scope: LedgerScope, citation: TableCitation) {
        self.backoff = backoff
        self.scope = scope
        self.citation = citation
    }

    /// The instant the back-off in force at `t` began, or nil when none is in force.
    ///
    /// The condition holds at a counted entry's instant `e` when `count` counted entries of the
    /// scope lie in `(e − within, e]` (`e` the last of them) and at most `opened` entries of the
    /// scope reported `opened` do. A back-off begins at such an `e` when no back-off is in
    /// force then, and lasts `duration` from it; a later `opened` does not end it. Only entries
    /// at or before `t` are read.
    func start(in ledger: borrowing LedgerIndex, at t: Int) -> Int? {
        let b = backoff
        var events = ledger.instants(scope, status: .dismissed)
        if b.counted == .ignored {
            events = (events + ledger.instants(scope, status: .delivered)).sorted()
        }
        let upper = events.partitionPoint { $0 > t }
        guard upper >= b.count else { return nil }
        var begun: Int?
        for k in (b.count - 1) ..< upper {
            let end = events[k]
            guard end - events[k - b.count + 1] < b.within else { continue }
            if let s = begun, end < s + b.duration { continue }
            let opens = ledger.count(scope, statuses: [.opened], in: (end - b.within + 1) ..< (end + 1))
            guard opens <= b.opened else { continue }
            begun = end
        }
        guard let s = begun, t < s + b.duration else { return nil }
        return s
    }
}

extension Array where Element == Int {
    /// The index of the first element for which `predicate` holds, in a sorted array where it
    /// holds for a suffix.
    fileprivate func partitionPoint(_ predicate: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
