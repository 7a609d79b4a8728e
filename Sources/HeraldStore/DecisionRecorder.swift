public import HeraldContract
public import HeraldEngine

/// Decide-and-record: the pure engine over a `LedgerStore`, one atomic unit of work per call.
///
/// The engine stays pure: the recorder reads what the policy can look at of the user's ledger
/// (`window`), decides with `Engine.decideAll(_:for:ledger:now:)`, and has the store write the
/// scheduled, batched or deferred entries in the same transaction. A request's own `history`
/// is not read: the store's ledger is the history.
public struct DecisionRecorder: Sendable {
    public let engine: Engine
    public let store: any LedgerStore
    /// How much of a ledger the engine's policy can look at (`LedgerWindow(bundle:)`).
    public let window: LedgerWindow

    public init(engine: Engine, store: any LedgerStore) {
        self.engine = engine
        self.store = store
        window = LedgerWindow(bundle: engine.bundle)
    }

    /// Decides `request` against the user's stored ledger and records what it schedules or
    /// batches, atomically for the user.
    /// - Parameters:
    ///   - request: the trigger; `request.user.id` names the ledger; `request.now` is the clock.
    ///   - idempotencyKey: the caller's key for this request; a request whose key was already
    ///     decided gets the stored response back, byte for byte, and records nothing.
    ///   - deadline: when the caller stops waiting (a server's request timeout). A unit that gets
    ///     the user's ledger later (another writer held it) records nothing and throws
    ///     `StoreError.deadlinePassed`, so an answer of "timed out" is not followed by a write.
    /// - Returns: the response (the JSON `herald decide` prints, compact) and what was recorded.
    /// - Throws: `RequestErrors` for a bad request (nothing recorded), `StoreError` for the store.
    public func decide(_ request: DecisionRequest, idempotencyKey: String? = nil,
                       deadline: ContinuousClock.Instant? = nil) async throws -> RecordedDecision {
        guard !request.userID.isEmpty else { throw StoreError.missingUser }
        let inputs = try engine.inputs(request).get()
        return try await decide(inputs.trigger, for: inputs.user, now: request.now, idempotencyKey: idempotencyKey, deadline: deadline)
    }

    /// `decide(_:idempotencyKey:)` for typed inputs: `user.id` names the ledger, whose stored
    /// entries stand in for `user.history`.
    public func decide(_ trigger: Trigger, for user: UserContext, now: Int, idempotencyKey: String? = nil,
                       deadline: ContinuousClock.Instant? = nil) async throws -> RecordedDecision {
        guard !user.id.isEmpty else { throw StoreError.missingUser }
        let engine = self.engine
        let read = window.read(around: min(now, trigger.at))
        let commit = try await store.commit(user: user.id, read: read, requestKey: idempotencyKey, now: now) { records in
            try Self.check(deadline)
            let ledger = engine.ledger(records.map(\.entry))
            switch engine.decideAll(trigger, for: user, ledger: ledger, now: now) {
            case .failure(let errors):
                throw errors
            case .success(let decisions):
                let entries = decisions.compactMap { $0.historyEntry(subject: $0.subject) }
                let response = DecisionResponse.text(decisions, engine: engine)
                return (LedgerProposal(insert: entries, response: response), decisions)
            }
        }
        return RecordedDecision(response: commit.response, replayed: commit.replayed, decisions: commit.value ?? [],
                                recorded: commit.inserted)
    }

    /// Throws `StoreError.deadlinePassed` once `deadline` has passed: called first in a unit's
    /// `decide`, which the store runs holding the user's ledger, so the unit rolls back.
    static func check(_ deadline: ContinuousClock.Instant?) throws(StoreError) {
        if let deadline, ContinuousClock.now >= deadline {
            throw StoreError(.deadlinePassed, "the unit of work got the user's ledger after its deadline; nothing was recorded")
        }
    }

    /// Reports an event for the user's live entry with `key`.
    /// - Throws: `StoreError.unknownKey` when no live entry has the key (nothing is inserted).
    public func event(user: String, key: String, _ event: LedgerEvent, at: Int) async throws -> LedgerRecord {
        guard !user.isEmpty else { throw StoreError.missingUser }
        return try await store.applyEvent(user: user, key: key, status: event.status, at: at)
    }

    /// The user's stored ledger, oldest delivery first.
    public func ledger(user: String) async throws -> [LedgerRecord] {
        try await store.entries(user: user)
    }

    /// Deletes every row of the user. - Returns: how many entries were deleted.
    public func forget(user: String) async throws -> Int {
        try await store.forget(user: user)
    }

    /// Deletes what the policy can no longer look at at `now` (entries older than `window`,
    /// except those of lifetime-capped types). - Returns: how many entries were deleted.
    public func prune(now: Int) async throws -> Int {
        guard let cutoff = window.pruneCutoff(now: now) else { return 0 }
        return try await store.prune(before: cutoff, keepTypes: window.lifetimeTypes)
    }
}
