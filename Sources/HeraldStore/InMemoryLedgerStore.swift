internal import HeraldContract
public import HeraldEngine
import Synchronization

/// A `LedgerStore` in memory: for tests, simulations and a single process that may lose its
/// ledger on exit. A unit of work holds its user's lock for its whole run, so one user's units
/// never interleave. Users are spread over `stripeCount` locks by their id's hash: units of
/// users under other locks run at the same time (with one lock for every user, a server's cores
/// took turns deciding, and the waiting cost more than the deciding).
public final class InMemoryLedgerStore: LedgerStore {
    /// One user's rows.
    struct UserRows {
        var records: [LedgerRecord] = []
        /// Idempotency key → (response, recordedAt).
        var responses: [String: (response: String, recordedAt: Int)] = [:]

        func liveIndex(of key: String) -> Int? {
            records.firstIndex { $0.entry.key == key && $0.isLive }
        }
    }

    /// Some users' rows behind one lock.
    private final class Stripe: Sendable {
        let users = Mutex<[String: UserRows]>([:])
    }

    /// How many locks the users are spread over.
    static let stripeCount = 64
    private let stripes: [Stripe] = (0..<InMemoryLedgerStore.stripeCount).map { _ in Stripe() }

    public init() {}

    /// The lock of `user`'s rows (by the id's hash, seeded per process: only this process's
    /// units meet at it).
    private func stripe(_ user: String) -> Stripe {
        stripes[Int(UInt(bitPattern: user.hashValue) % UInt(Self.stripeCount))]
    }

    public func commit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value> {
        guard !user.isEmpty else { throw StoreError.missingUser }
        return try stripe(user).users.withLock { users in
            if let requestKey, let stored = users[user]?.responses[requestKey] {
                return LedgerCommit(response: stored.response, replayed: true, value: nil, inserted: [])
            }
            // The user's rows are moved out of the dictionary and back (not copied): a copy
            // would copy every stored response of the user on each unit. Only the records are
            // copied, so that a failed unit leaves them as they were.
            var rows = users.removeValue(forKey: user) ?? UserRows()
            defer { if !rows.records.isEmpty || !rows.responses.isEmpty { users[user] = rows } }
            var unit = UnitOfWork<Value>(snapshot: rows.records.filter { read.includes($0.entry) })
            while true {
                let proposal = try unit.propose(decide)
                let wanted = Set(unit.unseenKeys)
                let colliding = wanted.isEmpty ? [] : rows.records.filter { $0.isLive && wanted.contains($0.entry.key) }
                if colliding.isEmpty {
                    var records = rows.records
                    try Self.apply(proposal, to: &records, user: user, now: now)
                    rows.records = records
                    break
                }
                unit.add(colliding)
            }
            let (proposal, value) = unit.result
            if let requestKey { rows.responses[requestKey] = (proposal.response, now) }
            return LedgerCommit(response: proposal.response, replayed: false, value: value, inserted: proposal.insert)
        }
    }

    /// Applies a proposal to a copy of the user's records (the caller keeps it only on success).
    static func apply(_ proposal: LedgerProposal, to records: inout [LedgerRecord], user: String, now: Int) throws {
        func liveIndex(of key: String) -> Int? {
            records.firstIndex { $0.entry.key == key && $0.isLive }
        }
        for key in proposal.cancel {
            guard let index = liveIndex(of: key) else { throw StoreError.unknownKey(user: user, key: key) }
            records[index].entry.status = .cancelled
            records[index].updatedAt = now
        }
        for entry in proposal.update {
            guard let index = liveIndex(of: entry.key) else { throw StoreError.unknownKey(user: user, key: entry.key) }
            records[index].entry = entry
            records[index].updatedAt = now
        }
        for entry in proposal.insert {
            if entry.status != .cancelled, liveIndex(of: entry.key) != nil {
                throw StoreError(.keyConflict, "user `\(user)` already has a live entry with key `\(entry.key)`")
            }
            records.append(LedgerRecord(entry: entry, recordedAt: now))
        }
    }

    public func applyEvent(user: String, key: String, status: HistoryEntry.Status, at: Int) async throws -> LedgerRecord {
        try stripe(user).users.withLock { users in
            guard let index = users[user]?.liveIndex(of: key) else { throw StoreError.unknownKey(user: user, key: key) }
            users[user]!.records[index].entry.status = status
            users[user]!.records[index].updatedAt = at
            return users[user]!.records[index]
        }
    }

    public func entries(user: String) async throws -> [LedgerRecord] {
        let records = stripe(user).users.withLock { $0[user]?.records ?? [] }
        // A stable sort keeps recording order among equal instants.
        return records.enumerated().sorted { ($0.element.entry.deliverAt, $0.offset) < ($1.element.entry.deliverAt, $1.offset) }.map(\.element)
    }

    /// Memory always takes writes.
    public func checkWritable() async throws {}

    public func forget(user: String) async throws -> Int {
        stripe(user).users.withLock { $0.removeValue(forKey: user)?.records.count ?? 0 }
    }

    /// One lock at a time: each user's rows are pruned under their lock, and units of users
    /// under other locks go on meanwhile.
    public func prune(before cutoff: Int, keepTypes: Set<String>) async throws -> Int {
        var deleted = 0
        for stripe in stripes {
            deleted += stripe.users.withLock { users in
                var deleted = 0
                for user in users.keys {
                    let before = users[user]!.records.count
                    users[user]!.records.removeAll { $0.entry.deliverAt < cutoff && !keepTypes.contains($0.entry.type) }
                    users[user]!.responses = users[user]!.responses.filter { $0.value.recordedAt >= cutoff }
                    deleted += before - users[user]!.records.count
                }
                return deleted
            }
        }
        return deleted
    }
}
