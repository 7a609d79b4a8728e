internal import HeraldContract
public import HeraldEngine

/// What a caller reports about a recorded notification (`herald event --status …`).
public enum LedgerEvent: String, Sendable, Hashable, CaseIterable {
    case delivered, opened, dismissed, cancelled

    /// The status the entry takes.
    public var status: HistoryEntry.Status {
        switch self {
        case .delivered: .delivered
        case .opened: .opened
        case .dismissed: .dismissed
        case .cancelled: .cancelled
        }
    }
}
