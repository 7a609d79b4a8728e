/// The store-independent half of `LedgerStore.commit`: calling `decide` until no key it
/// inserts collides with a live entry outside the snapshot. Stores call it inside their
/// transaction with their own key lookup.
public enum UnitOfWork {
    /// How many times `decide` may be asked again before the store gives up (each round adds
    /// the colliding entries, which the engine then reports as duplicates).
    public static let maximumRounds = 4

    /// Runs `decide` over `snapshot`, looking up the keys it inserts with `liveEntries` (the
    /// user's live entries holding any of the keys), and repeats with the colliding entries
    /// added until nothing collides.
    /// - Returns: the final proposal and value.
    /// - Throws: what `decide` or `liveEntries` throw; `StoreError.keyConflict` after
    ///   `maximumRounds`.
    public static func resolve<Value>(
        snapshot: [LedgerRecord],
        decide: ([LedgerRecord]) throws -> (LedgerProposal, Value),
        liveEntries: ([String]) throws -> [LedgerRecord]
    ) throws -> (LedgerProposal, Value) {
        var snapshot = snapshot
        var seen = Set(snapshot.lazy.filter(\.isLive).map(\.entry.key))
        for _ in 0 ..< maximumRounds {
            let (proposal, value) = try decide(snapshot)
            let unseen = proposal.insert.map(\.key).filter { !seen.contains($0) }
            let colliding = unseen.isEmpty ? [] : try liveEntries(unseen)
            if colliding.isEmpty { return (proposal, value) }
            snapshot += colliding
            for record in colliding { seen.insert(record.entry.key) }
        }
        throw StoreError(.keyConflict, "a decision kept inserting keys the user's ledger already holds")
    }

    /// `resolve` with an asynchronous key lookup (a store whose driver is asynchronous).
    public static func resolve<Value>(
        snapshot: [LedgerRecord],
        decide: ([LedgerRecord]) throws -> (LedgerProposal, Value),
        liveEntries: ([String]) async throws -> [LedgerRecord]
    ) async throws -> (LedgerProposal, Value) {
        var snapshot = snapshot
        var seen = Set(snapshot.lazy.filter(\.isLive).map(\.entry.key))
        for _ in 0 ..< maximumRounds {
            let (proposal, value) = try decide(snapshot)
            let unseen = proposal.insert.map(\.key).filter { !seen.contains($0) }
            let colliding = unseen.isEmpty ? [] : try await liveEntries(unseen)
            if colliding.isEmpty { return (proposal, value) }
            snapshot += colliding
            for record in colliding { seen.insert(record.entry.key) }
        }
        throw StoreError(.keyConflict, "a decision kept inserting keys the user's ledger already holds")
    }
}
