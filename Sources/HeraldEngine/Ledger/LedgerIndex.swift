/// A user's history, indexed for the questions caps, cooldowns and dedupe ask: how many in
/// a window, when was the last one, when is there room again, was this key already sent.
///
/// Built once per request (or once per user and reused across a plan). Each scope — global,
/// each type, category, channel, subject and (type, subject) pair — keeps the delivery
/// instants of its counted entries in a sorted `[Int]`; scopes are interned to dense ids at
/// build time so the hot path is an array index plus binary searches, with no hashing of
/// strings per query when callers resolve `ScopeID`s once.
///
/// **Which entries count.** Entries whose status is in `counting` (by default scheduled,
/// delivered, opened and dismissed; `cancelled` is never counted even if listed). A cap
/// with a different `counts:` list needs its own index.
///
/// **Batches count once globally.** Entries that share a `batchKey` reached the user as one
/// notification. The global scope holds only one instant per batch key — the earliest
/// member's — so global caps count the batch once while other scopes (type, category, …)
/// count every member. Inserting an earlier member of a known batch moves that instant.
public struct LedgerIndex: Sendable {
    /// A scope interned by this index. Ids stay valid as entries are inserted.
    public struct ScopeID: Sendable, Hashable {
        fileprivate let raw: Int
    }

    /// The statuses that count (never including `cancelled`).
    public var counting: Set<HistoryEntry.Status> { storage.counting }
    /// Whether `counting` is the default set (caps with the default `counts:` reuse this index).
    var countsDefaults: Bool { storage.countsDefaults }
    /// The indexed entries, in the order given then inserted (caps with their own `counts:`
    /// re-index them).
    public var entries: [HistoryEntry] { storage.entries }

    /// The index itself, shared by copies until one of them inserts (copy on write), so
    /// passing a ledger around costs one reference count.
    private var storage: LedgerStorage

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Indexes `entries`.
    ///
    /// - Parameters:
    ///   - entries: the history, in any order.
    ///   - counting: which statuses count; `cancelled` is ignored if present.
    ///   - category: the category of a type id (nil: the type joins no category scope).
    /// - Complexity: O(n log n) for n entries.
    public init(
        _ entries: some Sequence<HistoryEntry>,
        counting: Set<HistoryEntry.Status> = HistoryEntry.Status.counting,
        category: @escaping @Sendable (String) -> String?
    ) {
        storage = LedgerStorage(counting: counting.subtracting([.cancelled]), categoryOf: category, entries: Array(entries))
        let s = storage
        var batchMinimum: [String: Int] = [:]
        s.entryScopes.reserveCapacity(s.entries.count)
        s.buckets[0].reserveCapacity(s.entries.count)
        for entry in s.entries {
            let scopes = scopes(ofType: entry.type)
            s.entryScopes.append(scopes)
            recordStatus(entry.deliverAt, status: entry.status, scopes: scopes, keepSorted: false)
            recordKeys(entry, keepSorted: false)
            guard counts(entry.status) else { continue }
            addToScopes(entry, scopes: scopes, keepSorted: false)
            if let batch = entry.batchKey {
                batchMinimum[batch] = min(batchMinimum[batch] ?? entry.deliverAt, entry.deliverAt)
            } else {
                s.buckets[0].append(entry.deliverAt)
            }
        }
        s.buckets[0].append(contentsOf: batchMinimum.values)
        s.batchStarts = batchMinimum
        for index in s.buckets.indices { s.buckets[index].sort() }
        for type in s.pendingByType.keys { s.pendingByType[type]!.sort() }
        for index in s.statusBuckets.indices where s.statusBuckets[index].count > 1 { s.statusBuckets[index].sort() }
    }

    /// How many statuses an entry can have: the buckets of a status row (a test checks it
    /// against `HistoryEntry.Status.allCases` and `ordinal`).
    static var statusCount: Int { 5 }

    /// The scope ids of a type and of its category (-1: the type joins no category), and
    /// their status rows.
    struct TypeScopes: Sendable {
        var type: Int
        var category: Int
        var typeRow: Int
        var categoryRow: Int
    }

    /// The scope ids and status rows of `type` and its category, made at the first entry of
    /// the type. Call on a unique storage only.
    private func scopes(ofType type: String) -> TypeScopes {
        let s = storage
        if let known = s.typeScopes[type] { return known }
        let typeID = internRaw(.type(type))
        let categoryID = s.categoryOf(type).map { internRaw(.category($0)) } ?? -1
        let scopes = TypeScopes(type: typeID, category: categoryID, typeRow: statusRow(typeID),
                                categoryRow: categoryID >= 0 ? statusRow(categoryID) : -1)
        s.typeScopes[type] = scopes
        return scopes
    }

    /// The status row of scope `id`, made if it has none. Call on a unique storage only.
    private func statusRow(_ id: Int) -> Int {
        let s = storage
        if s.statusRows[id] >= 0 { return s.statusRows[id] }
        let row = s.statusBuckets.count / Self.statusCount
        s.statusBuckets.append(contentsOf: repeatElement([], count: Self.statusCount))
        s.statusRows[id] = row
        return row
    }

    /// The bucket of `status` in the status row of scope `id`, if the scope has a row.
    private func statusBucket(_ id: ScopeID, _ status: HistoryEntry.Status) -> [Int]? {
        let row = storage.statusRows[id.raw]
        return row >= 0 ? storage.statusBuckets[row * Self.statusCount + status.ordinal] : nil
    }

    /// Whether entries with `status` count (`counting` holds it): no set lookup for the
    /// default statuses, every status but `cancelled`.
    @inline(__always)
    private func counts(_ status: HistoryEntry.Status) -> Bool {
        storage.countsDefaults ? status != .cancelled : storage.counting.contains(status)
    }

    /// Records an entry's instant under its type and its type's category with its status
    /// (any status).
    private func recordStatus(_ instant: Int, status: HistoryEntry.Status, scopes: TypeScopes, keepSorted: Bool) {
        addStatus(instant, at: scopes.typeRow * Self.statusCount + status.ordinal, keepSorted: keepSorted)
        if scopes.categoryRow >= 0 { addStatus(instant, at: scopes.categoryRow * Self.statusCount + status.ordinal, keepSorted: keepSorted) }
    }

    private func addStatus(_ instant: Int, at slot: Int, keepSorted: Bool) {
        if keepSorted {
            Self.insertSorted(&storage.statusBuckets[slot], instant)
        } else {
            storage.statusBuckets[slot].append(instant)
        }
    }

    /// How many entries of a type or category scope with one of `statuses` (any status,
    /// including ones that do not count against caps) deliver in `range` (half-open).
    /// - Complexity: O(s log n) for s statuses.
    public func count(_ scope: LedgerScope, statuses: Set<HistoryEntry.Status>, in range: Range<Int>) -> Int {
        guard let id = id(of: scope) else { return 0 }
        var total = 0
        for status in statuses {
            guard let bucket = statusBucket(id, status) else { continue }
            total += Self.lowerBound(bucket, range.upperBound) - Self.lowerBound(bucket, range.lowerBound)
        }
        return total
    }

    /// Records what dedupe and batching ask about: keys, batch keys, pending unbatched entries.
    private func recordKeys(_ entry: HistoryEntry, keepSorted: Bool) {
        let s = storage
        guard entry.status != .cancelled else { return }
        if !s.keyFirst.insert(entry.key, first: entry.deliverAt) {
            s.keyMore[entry.key, default: []].append(entry.deliverAt)
        }
        if let batch = entry.batchKey {
            s.batchKeys.insert(batch)
            if entry.status != .scheduled { s.sentBatchKeys.insert(batch) }
        } else if entry.status == .scheduled {
            if keepSorted {
                Self.insertSorted(&s.pendingByType[entry.type, default: []], entry.deliverAt)
            } else {
                s.pendingByType[entry.type, default: []].append(entry.deliverAt)
            }
        }
    }

    /// Indexes `entries` with a type → category dictionary; see `init(_:counting:category:)`.
    public init(
        _ entries: some Sequence<HistoryEntry>,
        counting: Set<HistoryEntry.Status> = HistoryEntry.Status.counting,
        categories: [String: String] = [:]
    ) {
        self.init(entries, counting: counting, category: { categories[$0] })
    }

    // MARK: Scopes

    /// The id of `scope`, or nil when no entry has ever fallen in it (then every count is
    /// zero; use `intern(_:)` to get an id that stays valid across inserts). A type or
    /// category scope has an id from its first entry of any status; other scopes from their
    /// first counted entry.
    public func id(of scope: LedgerScope) -> ScopeID? {
        id(of: LedgerScope.Key(scope))
    }

    /// See `id(of:)`; the key's hash is already computed.
    func id(of key: LedgerScope.Key) -> ScopeID? {
        // The global scope is always id 0 (interned first), the one most caps count.
        if case .global = key.scope { return ScopeID(raw: 0) }
        return storage.ids[key].map(ScopeID.init(raw:))
    }

    /// The id of `scope`, creating an empty one if needed.
    public mutating func intern(_ scope: LedgerScope) -> ScopeID {
        makeUnique()
        return ScopeID(raw: internRaw(scope))
    }

    /// Call on a unique storage only.
    private func internRaw(_ scope: LedgerScope) -> Int {
        let s = storage
        let key = LedgerScope.Key(scope)
        if let id = s.ids[key] { return id }
        let id = s.buckets.count
        s.ids[key] = id
        s.buckets.append([])
        s.statusRows.append(-1)
        return id
    }

    /// Records the entry's instant in every non-global scope it belongs to (`scopes` are its
    /// type's and its category's): appended while building (sorted once at the end), inserted
    /// in order afterwards.
    private func addToScopes(_ entry: HistoryEntry, scopes: TypeScopes, keepSorted: Bool) {
        add(entry.deliverAt, toID: scopes.type, keepSorted: keepSorted)
        if scopes.category >= 0 { add(entry.deliverAt, toID: scopes.category, keepSorted: keepSorted) }
        if let channel = entry.channel { add(entry.deliverAt, toID: channelID(channel), keepSorted: keepSorted) }
        if let subject = entry.subject {
            add(entry.deliverAt, to: .subject(subject), keepSorted: keepSorted)
            add(entry.deliverAt, to: .typeSubject(type: entry.type, subject: subject), keepSorted: keepSorted)
        }
    }

    /// The id of `channel`'s scope, interned if new (the last one is remembered). Call on a
    /// unique storage only.
    private func channelID(_ channel: String) -> Int {
        let s = storage
        if let last = s.lastChannel, last.name == channel { return last.id }
        let id = internRaw(.channel(channel))
        s.lastChannel = (channel, id)
        return id
    }

    private func add(_ instant: Int, to scope: LedgerScope, keepSorted: Bool) {
        add(instant, toID: internRaw(scope), keepSorted: keepSorted)
    }

    private func add(_ instant: Int, toID id: Int, keepSorted: Bool) {
        if keepSorted {
            Self.insertSorted(&storage.buckets[id], instant)
        } else {
            storage.buckets[id].append(instant)
        }
    }

    /// The sorted delivery instants counted in `scope` (for traces and tests).
    public func instants(in scope: LedgerScope) -> [Int] {
        storage.ids[LedgerScope.Key(scope)].map { storage.buckets[$0] } ?? []
    }

    // MARK: Queries

    /// How many counted entries of the scope deliver in `range` (half-open: `lowerBound` is
    /// included, `upperBound` is not).
    /// - Complexity: O(log n).
    public func count(_ scope: ScopeID, in range: Range<Int>) -> Int {
        withBucket(scope.raw) { Self.lowerBound($0, range.upperBound) - Self.lowerBound($0, range.lowerBound) }
    }

    /// Runs `body` over a scope's sorted instants where the index keeps them (no copy of the
    /// array, so no reference counted).
    @inline(__always)
    private func withBucket<R>(_ raw: Int, _ body: (UnsafeBufferPointer<Int>) -> R) -> R {
        storage.buckets.withUnsafeBufferPointer { buckets in
            precondition(raw >= 0 && raw < buckets.count)
            return buckets.baseAddress.unsafelyUnwrapped[raw].withUnsafeBufferPointer(body)
        }
    }

    /// See `count(_:in:)`.
    func count(_ key: LedgerScope.Key, in range: Range<Int>) -> Int {
        guard let id = id(of: key) else { return 0 }
        return count(id, in: range)
    }

    /// See `last(_:before:)`.
    func last(_ key: LedgerScope.Key, before instant: Int) -> Int? {
        id(of: key).flatMap { last($0, before: instant) }
    }

    /// See `first(_:atOrAfter:)`.
    func first(_ key: LedgerScope.Key, atOrAfter instant: Int) -> Int? {
        id(of: key).flatMap { first($0, atOrAfter: instant) }
    }

    /// See `count(_:in:)`.
    public func count(_ scope: LedgerScope, in range: Range<Int>) -> Int {
        guard let id = id(of: scope) else { return 0 }
        return count(id, in: range)
    }

    /// The latest counted delivery strictly before `instant` (for cooldowns).
    /// - Complexity: O(log n).
    public func last(_ scope: ScopeID, before instant: Int) -> Int? {
        withBucket(scope.raw) { bucket in
            let index = Self.lowerBound(bucket, instant)
            return index > 0 ? bucket[index - 1] : nil
        }
    }

    /// See `last(_:before:)`.
    public func last(_ scope: LedgerScope, before instant: Int) -> Int? {
        id(of: scope).flatMap { last($0, before: instant) }
    }

    /// The earliest counted delivery at or after `instant` (a cooldown also looks forward
    /// at what is already scheduled).
    /// - Complexity: O(log n).
    public func first(_ scope: ScopeID, atOrAfter instant: Int) -> Int? {
        withBucket(scope.raw) { bucket in
            let index = Self.lowerBound(bucket, instant)
            return index < bucket.count ? bucket[index] : nil
        }
    }

    /// See `first(_:atOrAfter:)`.
    public func first(_ scope: LedgerScope, atOrAfter instant: Int) -> Int? {
        id(of: scope).flatMap { first($0, atOrAfter: instant) }
    }

    /// Whether an entry with this idempotency key is in the history with any status but
    /// `cancelled` (a cancelled notification may be sent again).
    /// - Complexity: O(1) expected.
    public func contains(key: String) -> Bool {
        storage.keyFirst[key] != nil
    }

    /// Whether a non-cancelled entry with this key delivers less than `window` seconds from
    /// `instant` (either side): a dedupe window.
    /// - Complexity: O(1) expected, plus the key's repeats.
    public func contains(key: String, within window: Int, of instant: Int) -> Bool {
        guard let first = storage.keyFirst[key] else { return false }
        if abs(first - instant) < window { return true }
        return storage.keyMore[key]?.contains { abs($0 - instant) < window } ?? false
    }

    /// The batch keys of non-cancelled entries that start with `prefix`.
    /// - Complexity: O(b) for b distinct batch keys in the history.
    /// Whether any indexed entry belongs to a batch.
    public var hasBatches: Bool { !storage.batchKeys.isEmpty }

    public func batchKeys(withPrefix prefix: String) -> [String] {
        storage.batchKeys.filter { $0.hasPrefix(prefix) }
    }

    /// The instants of the entries of `scope` (a type or category) with `status`, sorted.
    public func instants(_ scope: LedgerScope, status: HistoryEntry.Status) -> [Int] {
        id(of: scope).flatMap { statusBucket($0, status) } ?? []
    }

    /// Whether an entry of the batch was reported gone out (`delivered`, `opened`, `dismissed`).
    public func batchWasSent(_ key: String) -> Bool {
        storage.sentBatchKeys.contains(key)
    }

    /// The earliest instant of a `scheduled` entry of `type` outside any batch in the open
    /// range `(low, high)`.
    /// - Complexity: O(log n).
    public func firstPending(type: String, after low: Int, before high: Int) -> Int? {
        guard !storage.pendingByType.isEmpty, let bucket = storage.pendingByType[type] else { return nil }
        let index = Self.upperBound(bucket, low)
        return index < bucket.count && bucket[index] < high ? bucket[index] : nil
    }

    // MARK: Updates

    /// Adds an entry, keeping every scope sorted (a plan feeds its own decisions back).
    /// - Complexity: O(log n) to find each position, O(n) to shift the arrays.
    public mutating func insert(_ entry: HistoryEntry) {
        makeUnique()
        let s = storage
        s.entries.append(entry)
        let scopes = scopes(ofType: entry.type)
        s.entryScopes.append(scopes)
        recordStatus(entry.deliverAt, status: entry.status, scopes: scopes, keepSorted: true)
        recordKeys(entry, keepSorted: true)
        guard counts(entry.status) else { return }
        addToScopes(entry, scopes: scopes, keepSorted: true)
        guard let batch = entry.batchKey else {
            Self.insertSorted(&s.buckets[0], entry.deliverAt)
            return
        }
        if let start = s.batchStarts[batch] {
            guard entry.deliverAt < start else { return }
            let index = Self.lowerBound(s.buckets[0], start)
            s.buckets[0].remove(at: index)
        }
        s.batchStarts[batch] = entry.deliverAt
        Self.insertSorted(&s.buckets[0], entry.deliverAt)
    }

    /// Changes the status of the entry at `position` in `entries` (an event: delivered,
    /// opened, dismissed), updating the index in place where the change leaves the counted
    /// scopes alone: between two counted statuses (or two uncounted ones) other than
    /// `cancelled`, an entry keeps its instant in every counted scope, so only its status
    /// buckets, the pending entries of its type and its batch's "sent" mark move. Any other
    /// change (to or from `cancelled`, into or out of `counting`, a batch member back to
    /// `scheduled`) re-indexes every entry, as building the index anew would.
    /// - Complexity: O(log n) plus the shift of the arrays touched; O(n log n) when re-indexing.
    public mutating func setStatus(_ status: HistoryEntry.Status, ofEntryAt position: Int) {
        precondition(position >= 0 && position < storage.entries.count, "no indexed entry at \(position)")
        let oldStatus = storage.entries[position].status
        guard oldStatus != status else { return }
        makeUnique()
        let s = storage
        let isBatched = s.entries[position].batchKey != nil
        let inPlace = oldStatus != .cancelled && status != .cancelled
            && counts(oldStatus) == counts(status)
            && !(isBatched && oldStatus != .scheduled && status == .scheduled)
        guard inPlace else {
            var entries = s.entries
            entries[position].status = status
            self = LedgerIndex(entries, counting: s.counting, category: s.categoryOf)
            return
        }
        // The entry's status changes in place; its instant, type and batch stay.
        s.entries[position].status = status
        let type = s.entries[position].type, instant = s.entries[position].deliverAt
        let scopes = s.entryScopes[position]
        moveStatus(instant, row: scopes.typeRow, from: oldStatus, to: status)
        if scopes.categoryRow >= 0 { moveStatus(instant, row: scopes.categoryRow, from: oldStatus, to: status) }
        if let batch = s.entries[position].batchKey {
            if status != .scheduled { s.sentBatchKeys.insert(batch) }
        } else if oldStatus == .scheduled {
            Self.removeOne(&s.pendingByType[type, default: []], instant)
        } else if status == .scheduled {
            Self.insertSorted(&s.pendingByType[type, default: []], instant)
        }
    }

    /// Moves one instant of a status row from the `old` status's bucket to the `new` one's.
    private func moveStatus(_ instant: Int, row: Int, from old: HistoryEntry.Status, to new: HistoryEntry.Status) {
        Self.removeOne(&storage.statusBuckets[row * Self.statusCount + old.ordinal], instant)
        Self.insertSorted(&storage.statusBuckets[row * Self.statusCount + new.ordinal], instant)
    }

    /// Removes one occurrence of `value` from the sorted `a` (which holds it).
    private static func removeOne(_ a: inout [Int], _ value: Int) {
        let index = lowerBound(a, value)
        precondition(index < a.count && a[index] == value, "the index lost an instant")
        a.remove(at: index)
    }

    /// A copy with `entry` inserted.
    public func adding(_ entry: HistoryEntry) -> LedgerIndex {
        var copy = self
        copy.insert(entry)
        return copy
    }

    // MARK: Binary search

    /// The first index whose value is `>= value`.
    private static func lowerBound(_ a: [Int], _ value: Int) -> Int {
        a.withUnsafeBufferPointer { lowerBound($0, value) }
    }

    /// The first index whose value is `>= value`.
    @inline(__always)
    private static func lowerBound(_ b: UnsafeBufferPointer<Int>, _ value: Int) -> Int {
        var low = 0, high = b.count
        while low < high {
            let mid = low &+ (high &- low) >> 1
            if b[mid] < value { low = mid &+ 1 } else { high = mid }
        }
        return low
    }

    /// The first index whose value is `> value`.
    private static func upperBound(_ a: [Int], _ value: Int) -> Int {
        a.withUnsafeBufferPointer { b in
            var low = 0, high = b.count
            while low < high {
                let mid = low &+ (high &- low) >> 1
                if b[mid] <= value { low = mid &+ 1 } else { high = mid }
            }
            return low
        }
    }

    private static func insertSorted(_ a: inout [Int], _ value: Int) {
        a.insert(value, at: upperBound(a, value))
    }
}

extension HistoryEntry.Status {
    /// This status's row among a scope's status buckets (`LedgerIndex.statusCount` rows).
    var ordinal: Int {
        switch self {
        case .scheduled: 0
        case .delivered: 1
        case .opened: 2
        case .dismissed: 3
        case .cancelled: 4
        }
    }
}
