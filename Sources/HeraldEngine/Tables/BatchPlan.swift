import HeraldPolicy

/// A type's batch group, held by reference so the batching stage reads it without copying.
final class BatchPlan: Sendable {
    let group: BatchGroup
    var name: String { group.name }
    var window: Int { group.window }

    init(_ group: BatchGroup) {
        self.group = group
    }
}
