internal import HeraldContract
public import HeraldEngine

/// Which of a user's entries a store reads for one unit of work (`LedgerWindow.read(around:)`).
public struct LedgerRead: Sendable, Hashable {
    /// Entries delivering at or after this instant; nil: every entry.
    public var since: Int?
    /// Entries of these types, whatever their age.
    public var lifetimeTypes: Set<String>

    public init(since: Int?, lifetimeTypes: Set<String> = []) {
        self.since = since
        self.lifetimeTypes = lifetimeTypes
    }

    /// Everything.
    public static let all = LedgerRead(since: nil)

    /// Whether the read includes `entry`.
    public func includes(_ entry: HistoryEntry) -> Bool {
        guard let since else { return true }
        return entry.deliverAt >= since || lifetimeTypes.contains(entry.type)
    }
}
