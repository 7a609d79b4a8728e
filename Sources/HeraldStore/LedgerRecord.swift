public import HeraldContract
public import HeraldEngine

/// One stored ledger entry: the history entry the engine reads, and when the store wrote it.
public struct LedgerRecord: Sendable, Hashable {
    public var entry: HistoryEntry
    /// The `now` of the unit of work that recorded it (seconds since the Unix epoch).
    public var recordedAt: Int
    /// The `at` of the last event that changed its status; `recordedAt` until one does.
    public var updatedAt: Int

    public init(entry: HistoryEntry, recordedAt: Int, updatedAt: Int? = nil) {
        self.entry = entry
        self.recordedAt = recordedAt
        self.updatedAt = updatedAt ?? recordedAt
    }

    /// Whether the entry still holds its key (every status but `cancelled`): keys are unique per
    /// user among live entries.
    public var isLive: Bool { entry.status != .cancelled }

    /// `{ "key", "type", "subject"?, "channel"?, "deliverAt", "status", "batch"?, "recordedAt", "updatedAt" }`:
    /// a history entry of the request contract plus the store's two instants.
    public func json() -> JSON {
        var members = [JSON.Member("key", .string(entry.key)), JSON.Member("type", .string(entry.type))]
        if let subject = entry.subject { members.append(JSON.Member("subject", .string(subject))) }
        if let channel = entry.channel { members.append(JSON.Member("channel", .string(channel))) }
        members.append(JSON.Member("deliverAt", .string(RFC3339.format(entry.deliverAt, offsetSeconds: 0))))
        members.append(JSON.Member("status", .string(entry.status.rawValue)))
        if let batch = entry.batchKey { members.append(JSON.Member("batch", .string(batch))) }
        members.append(JSON.Member("recordedAt", .string(RFC3339.format(recordedAt, offsetSeconds: 0))))
        members.append(JSON.Member("updatedAt", .string(RFC3339.format(updatedAt, offsetSeconds: 0))))
        return .object(members)
    }
}
