import HeraldPolicy

/// A type's batch group, held by reference so the batching stage reads it without copying.
final class BatchPlan: Sendable {
    let group: BatchGroup
    var name: String { group.name }
    var window: Int { group.window }
    /// `by: threadId`, kept apart so the hot path reads one flag, not the group.
    let byThread: Bool

    init(_ group: BatchGroup) {
        self.group = group
        byThread = group.byThread
    }
}
