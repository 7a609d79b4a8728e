internal import HeraldContract
public import HeraldEngine

/// What a unit of work did (`LedgerStore.commit`).
public struct LedgerCommit<Value: Sendable>: Sendable {
    /// The response bytes: the new proposal's, or the stored one of a replayed request.
    public var response: String
    /// True when the request's idempotency key was already decided: `response` is the stored
    /// one and nothing was written.
    public var replayed: Bool
    /// What the last call of the unit's `decide` returned besides its proposal (nil when replayed).
    public var value: Value?
    /// The entries inserted.
    public var inserted: [HistoryEntry]

    public init(response: String, replayed: Bool, value: Value?, inserted: [HistoryEntry]) {
        self.response = response
        self.replayed = replayed
        self.value = value
        self.inserted = inserted
    }
}
