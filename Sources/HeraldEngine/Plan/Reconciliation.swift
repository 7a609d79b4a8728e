/// What to change so the pending notifications match a plan (`Engine.reconcile`): every
/// pending entry is kept, updated or cancelled, and every delivery of the plan is kept,
/// updated or added — each exactly once.
public struct Reconciliation: Sendable, Equatable {
    /// A pending entry whose identity (key) the plan still wants, with other content.
    public struct Update: Sendable, Equatable {
        public var pending: PendingEntry
        /// What to schedule in its place (same key).
        public var decision: Decision
        /// The content fields that differ (`deliverAt`, `title`, …; see `PendingEntry.changes`).
        public var changed: [String]

        public init(pending: PendingEntry, decision: Decision, changed: [String]) {
            self.pending = pending
            self.decision = decision
            self.changed = changed
        }
    }

    /// Deliveries of the plan whose key is not pending.
    public var add: [Decision]
    /// Pending entries the plan still wants, with the same content.
    public var keep: [PendingEntry]
    /// Pending entries the plan wants with other content (a new time, new copy): replace each.
    public var update: [Update]
    /// Pending entries whose key the plan no longer delivers (or a second entry of one key).
    public var cancel: [PendingEntry]

    public init(add: [Decision] = [], keep: [PendingEntry] = [], update: [Update] = [], cancel: [PendingEntry] = []) {
        self.add = add
        self.keep = keep
        self.update = update
        self.cancel = cancel
    }

    /// Nothing to change: every pending entry is kept and nothing is added.
    public var isEmpty: Bool { add.isEmpty && update.isEmpty && cancel.isEmpty }

    /// The pending set after applying the result: kept entries, then updated and added
    /// decisions as pending entries.
    public var applied: [PendingEntry] {
        keep + update.compactMap { $0.decision.pendingEntry() } + add.compactMap { $0.pendingEntry() }
    }
}
