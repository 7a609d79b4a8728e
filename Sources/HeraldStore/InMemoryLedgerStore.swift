public import HeraldEngine
import Synchronization

/// A `LedgerStore` in memory: for tests, simulations and a single process that may lose its
/// ledger on exit. A unit of work holds one lock for its whole run, so units never interleave.
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

    private let users = Mutex<[String: UserRows]>([:])

    public init() {}

    public func commit<Value: Sendable>(
        user: String, read: LedgerRead, requestKey: String?, now: Int,
        decide: @Sendable ([LedgerRecord]) throws -> (LedgerProposal, Value)
    ) async throws -> LedgerCommit<Value> {
        guard !user.isEmpty else { throw StoreError.missingUser }
        return try users.withLock { users in
            var rows = users[user] ?? UserRows()
            if let requestKey, let stored = rows.responses[requestKey] {
                return LedgerCommit(response: stored.response, replayed: true, value: nil, inserted: [])
            }
            let snapshot = rows.records.filter { read.includes($0.entry) }
            let (proposal, value) = try UnitOfWork.resolve(snapshot: snapshot, decide: decide) { keys in
                let wanted = Set(keys)
                return rows.records.filter { $0.isLive && wanted.contains($0.entry.key) }
            }
            try Self.apply(proposal, to: &rows, user: user, now: now)
            if let requestKey { rows.responses[requestKey] = (proposal.response, now) }
            users[user] = rows
            return LedgerCommit(response: proposal.response, replayed: false, value: value, inserted: proposal.insert)
        }
    }

    /// Applies a proposal to a copy of the user's rows (the caller keeps it only on success).
    static func apply(_ proposal: LedgerProposal, to rows: inout UserRows, user: String, now: Int) throws {
        for key in proposal.cancel {
            guard let index = rows.liveIndex(of: key) else { throw StoreError.unknownKey(user: user, key: key) }
            rows.records[index].entry.status = .cancelled
            rows.records[index].updatedAt = now
        }
        for entry in proposal.update {
            guard let index = rows.liveIndex(of: entry.key) else { throw StoreError.unknownKey(user: user, key: entry.key) }
            rows.records[index].entry = entry
            rows.records[index].updatedAt = now
        }
        for entry in proposal.insert {
            if entry.status != .cancelled, rows.liveIndex(of: entry.key) != nil {
                throw StoreError(.keyConflict, "user `\(user)` already has a live entry with key `\(entry.key)`")
            }
            rows.records.append(LedgerRecord(entry: entry, recordedAt: now))
        }
    }

    public func applyEvent(user: String, key: String, status: HistoryEntry.Status, at: Int) async throws -> LedgerRecord {
        try users.withLock { users in
            guard let index = users[user]?.liveIndex(of: key) else { throw StoreError.unknownKey(user: user, key: key) }
            users[user]!.records[index].entry.status = status
            users[user]!.records[index].updatedAt = at
            return users[user]!.records[index]
        }
    }

    public func entries(user: String) async throws -> [LedgerRecord] {
        let records = users.withLock { $0[user]?.records ?? [] }
        // A stable sort keeps recording order among equal instants.
        return records.enumerated().sorted { ($0.element.entry.deliverAt, $0.offset) < ($1.element.entry.deliverAt, $1.offset) }.map(\.element)
    }

    public func forget(user: String) async throws -> Int {
        users.withLock { $0.removeValue(forKey: user)?.records.count ?? 0 }
    }

    public func prune(before cutoff: Int, keepTypes: Set<String>) async throws -> Int {
        users.withLock { users in
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
}
