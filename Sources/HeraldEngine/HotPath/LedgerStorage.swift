/// The storage of a `LedgerIndex`: the scopes' sorted instants, the key and batch tables.
///
/// Invariant: a storage is written only through `LedgerIndex`'s mutating methods, after
/// `makeUnique()` (copy on write): a shared storage is never written, and a unique one only
/// by its one owner. That is why the runtime's exclusivity checks (a call per property
/// access, on every lookup of every decision) are skipped here, and why this class lives in
/// the hot path's folder: nothing else may write it.
final class LedgerStorage: @unchecked Sendable {
    let counting: Set<HistoryEntry.Status>
    let countsDefaults: Bool
    let categoryOf: @Sendable (String) -> String?
    @exclusivity(unchecked) var ids: ScopeTable = {
        var table = ScopeTable()
        table[LedgerScope.Key(.global)] = 0
        return table
    }()
    @exclusivity(unchecked) var buckets: [[Int]] = [[]]
    /// The delivery instant of each non-cancelled key (its first entry); later entries with
    /// the same key go to `keyMore`.
    @exclusivity(unchecked) var keyFirst = KeyTable()
    @exclusivity(unchecked) var keyMore: [String: [Int]] = [:]
    /// Every batch key of a non-cancelled entry.
    @exclusivity(unchecked) var batchKeys: Set<String> = []
    /// The batch keys of entries the caller reports as gone out (`delivered`, `opened`,
    /// `dismissed`): such a batch takes no more members.
    @exclusivity(unchecked) var sentBatchKeys: Set<String> = []
    /// Scheduled entries in no batch yet, by type: sorted instants (batching looks for a
    /// pending member to batch with).
    @exclusivity(unchecked) var pendingByType: [String: [Int]] = [:]
    @exclusivity(unchecked) var entries: [HistoryEntry]
    /// The instant representing each batch in the global bucket (its earliest member).
    @exclusivity(unchecked) var batchStarts: [String: Int] = [:]
    /// Every entry (any status) by type or category and status: sorted instants, for
    /// `sent(target, window, [statuses])`. A type or category scope has a row of
    /// `LedgerIndex.statusCount` buckets: status `s` of the scope with row `r` is at
    /// `r * LedgerIndex.statusCount + s.ordinal`, so a status change hashes no string.
    @exclusivity(unchecked) var statusBuckets: [[Int]] = []
    /// The status row of each scope id (-1: none; only type and category scopes have one).
    @exclusivity(unchecked) var statusRows: [Int] = [-1]
    /// The type and category scope ids of each entry of `entries`, at the same position (an
    /// event on an entry finds its status buckets by position).
    @exclusivity(unchecked) var entryScopes: [LedgerIndex.TypeScopes] = []
    /// The type and category scope ids of each type met so far (one lookup per insert instead
    /// of the category function and two scope hashes).
    @exclusivity(unchecked) var typeScopes: [String: LedgerIndex.TypeScopes] = [:]
    /// The channel scope met last and its id: a user's entries mostly share one or two
    /// channels, so most entries compare one short string instead of hashing a scope key.
    @exclusivity(unchecked) var lastChannel: (name: String, id: Int)?

    init(counting: Set<HistoryEntry.Status>, categoryOf: @escaping @Sendable (String) -> String?, entries: [HistoryEntry]) {
        self.counting = counting
        countsDefaults = counting == HistoryEntry.Status.counting
        self.categoryOf = categoryOf
        self.entries = entries
    }

    func copy() -> LedgerStorage {
        let c = LedgerStorage(counting: counting, categoryOf: categoryOf, entries: entries)
        c.ids = ids
        c.buckets = buckets
        c.keyFirst = keyFirst
        c.keyMore = keyMore
        c.batchKeys = batchKeys
        c.sentBatchKeys = sentBatchKeys
        c.pendingByType = pendingByType
        c.batchStarts = batchStarts
        c.statusBuckets = statusBuckets
        c.statusRows = statusRows
        c.entryScopes = entryScopes
        c.typeScopes = typeScopes
        c.lastChannel = lastChannel
        return c
    }
}
