/// What consecutive decisions for one user can share: the converted `prefs`, `state` and
/// `user` of the previous request (`Engine.decideAll(_:ledger:now:reusing:)`). A caller that
/// decides many triggers for one user whose record changes rarely (the simulator) keeps one
/// per user; each part is reused only while the next request's input is equal to the one it
/// came from, so a decision is the same as without it.
public struct RequestReuse: Sendable {
    var conversions = RequestConversions()

    public init() {}
}

extension Engine {
    /// `decideAll(_:ledger:now:)`, skipping the conversion of `prefs`, `state` and `user` when
    /// they are equal to the previous request's in `reuse` (an array compares by identity
    /// first, so a request built from the same values costs no walk), as a plan's candidates
    /// do. The decisions are the same as `decideAll(_:ledger:now:)`'s.
    /// - Complexity: as `decideAll(_:ledger:now:)`, minus the conversions reused.
    public func decideAll(_ request: DecisionRequest, ledger: LedgerIndex? = nil, now: Int,
                          reusing reuse: inout RequestReuse) -> Result<[Decision], RequestErrors> {
        guard let table = tables[request.type] else { return .failure(unknownType(request.type)) }
        // One index for every channel's run, as `decideAll(_:ledger:now:)` does.
        let ledger = ledger ?? self.ledger(request.history)
        guard table.deliversAll else {
            return decideOne(request, ledger: ledger, now: now, reuse: &reuse.conversions).map { [$0] }
        }
        var decisions: [Decision] = []
        decisions.reserveCapacity(table.channelChoices.count)
        for index in table.channelChoices.indices {
            switch decideOne(request, ledger: ledger, now: now, channel: Int16(index), reuse: &reuse.conversions) {
            case .success(let decision): decisions.append(decision)
            case .failure(let errors): return .failure(errors)
            }
        }
        return .success(decisions)
    }
}
