internal import HeraldContract
public import HeraldEngine

/// Where users' ledgers live: the history decisions are counted against, written in the same
/// transaction that reads it.
///
/// **The unit of work** (`commit`) is atomic per user: the store locks the user (SQLite: an
/// immediate transaction; PostgreSQL: `SELECT … FOR UPDATE` on the user's row; in memory: a
/// lock), returns the stored response if the request's idempotency key was already decided,
/// reads the entries `read` selects, calls `decide` with them, checks that no key the proposal
/// inserts is held by a live entry it did not read (if one is, the store adds those entries
/// and calls `decide` again: see `UnitOfWork`), writes the proposal and the response under the
/// idempotency key, and commits. Two units for one user never interleave, so two workers can
/// never both take the last slot under a cap. Any error rolls the whole unit back.
///
/// **Keys** are unique per user among live entries (every status but `cancelled`); stores
/// enforce it with a unique index. Idempotency keys are unique per user.
///
/// Implementations are `Sendable` and safe to call from many tasks at once; they never print.
/// Every method throws `StoreError` for store failures; `commit` rethrows what `decide` throws.
public protocol LedgerStore: Sendable {
    /// Runs one unit of work for `user` (see the protocol's description).
    /// - Parameters:
    ///   - user: the user id (not empty).
    ///   - read: which entries `decide` needs (`LedgerWindow.read(around:)`).
    ///   - requestKey: the request's idempotency key, or nil for none.
    ///   - now: the caller's clock: `recordedAt` of what is written.
    ///   - decide: pure: from the entries read, what to write and a value to hand back. It may
    ///     be called more than once (a key collision), and not at all when the request is replayed.
    /// - Returns: the response (stored or new) and what was written.
    func commit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value>

    /// Sets the status of the user's live entry with `key` (an event: delivered, opened,
    /// dismissed, cancelled), in one transaction.
    /// - Returns: the updated record.
    /// - Throws: `StoreError.unknownKey` when no live entry of the user has the key; an event
    ///   never inserts.
    func applyEvent(user: String, key: String, status: HistoryEntry.Status, at: Int) async throws -> LedgerRecord

    /// Every entry of the user, oldest delivery first (ties: recording order).
    func entries(user: String) async throws -> [LedgerRecord]

    /// Deletes every row of the user (entries and stored responses).
    /// - Returns: how many entries were deleted.
    func forget(user: String) async throws -> Int

    /// Deletes entries delivering before `cutoff` whose type is not in `keepTypes`, and stored
    /// responses recorded before `cutoff`. Entries of `keepTypes` (what lifetime caps count) stay.
    /// - Returns: how many entries were deleted.
    func prune(before cutoff: Int, keepTypes: Set<String>) async throws -> Int

    /// Writes without leaving a record: returns when the store can record now, throws
    /// `StoreError` when it cannot (a read-only server, a full disk, no connection).
    func checkWritable() async throws

    /// Releases the store's connections (units of work in flight finish first). A store must not
    /// be used after it is closed. Stores without connections (in memory, SQLite) do nothing.
    func close() async
}

extension LedgerStore {
    /// Nothing to release.
    public func close() async {}
}
