internal import HeraldContract
public import HeraldEngine

/// What a unit of work asks its store to write, decided from the entries the store read.
///
/// A store applies it in the same transaction that read the entries, after checking that no
/// key it inserts is already held by a live entry the read did not include (else it adds
/// those entries to the snapshot and asks again: the engine then sees them).
public struct LedgerProposal: Sendable, Equatable {
    /// New entries (scheduled, batched or deferred decisions), each with a key no live entry holds.
    public var insert: [HistoryEntry]
    /// Live entries to replace, matched by key (a reconciled update: a new time or channel).
    public var update: [HistoryEntry]
    /// Keys of live entries to mark `cancelled` (a reconciled cancel).
    public var cancel: [String]
    /// The response, exactly as returned to the caller and stored under the request's
    /// idempotency key.
    public var response: String

    public init(insert: [HistoryEntry] = [], update: [HistoryEntry] = [], cancel: [String] = [], response: String) {
        self.insert = insert
        self.update = update
        self.cancel = cancel
        self.response = response
    }
}
