/// The store-independent half of `LedgerStore.commit`: ask `decide` until no key its proposal
/// inserts collides with a live entry outside the snapshot.
///
/// Every store drives it the same way inside its own transaction (synchronous in SQLite and in
/// memory, asynchronous in PostgreSQL, which is why this is a value to step rather than a loop
/// taking closures):
/// ```swift
/// var unit = UnitOfWork<Value>(snapshot: snapshot)
/// while true {
///     let proposal = try unit.propose(decide)
///     let colliding = try write(proposal, unseen: unit.unseenKeys)  // the store's primitive
///     if colliding.isEmpty { return unit.result }
///     unit.add(colliding)
/// }
/// ```
/// The store's write either records the proposal (and returns no entries) or writes nothing and
/// returns the user's live entries that hold any of `unseenKeys`.
public struct UnitOfWork<Value> {
    /// How many proposals a unit may make before the store gives up (each round adds the
    /// colliding entries, which the engine then reports as duplicates).
    public static var maximumRounds: Int { 4 }

    /// What `decide` reads: the entries the store read, plus those that collided since.
    public private(set) var snapshot: [LedgerRecord]
    /// Keys the snapshot's live entries hold.
    private var seen: Set<String>
    private var rounds = 0
    private var last: (proposal: LedgerProposal, value: Value)?

    public init(snapshot: [LedgerRecord]) {
        self.snapshot = snapshot
        self.seen = Set(snapshot.lazy.filter(\.isLive).map(\.entry.key))
    }

    /// Decides over the snapshot (`decide` is the unit's, the same closure every round).
    /// - Throws: what `decide` throws; `StoreError.keyConflict` once `maximumRounds` proposals
    ///   have collided.
    public mutating func propose(_ decide: ([LedgerRecord]) throws -> (LedgerProposal, Value)) throws -> LedgerProposal {
        guard rounds < Self.maximumRounds else {
            throw StoreError(.keyConflict, "a decision kept inserting keys the user's ledger already holds")
        }
        rounds += 1
        let (proposal, value) = try decide(snapshot)
        last = (proposal, value)
        return proposal
    }

    /// The keys the last proposal inserts that no live entry of the snapshot holds: the store
    /// checks these against the rest of the user's ledger.
    public var unseenKeys: [String] {
        (last?.proposal.insert ?? []).map(\.key).filter { !seen.contains($0) }
    }

    /// Adds the live entries that hold unseen keys, for the next proposal.
    public mutating func add(_ colliding: [LedgerRecord]) {
        snapshot += colliding
        for record in colliding { seen.insert(record.entry.key) }
    }

    /// The last proposal and its value (after `propose()`).
    public var result: (LedgerProposal, Value) {
        guard let last else { preconditionFailure("UnitOfWork.result before propose()") }
        return (last.proposal, last.value)
    }
}
