internal import HeraldContract
public import HeraldEngine

/// The answer of a recorded `decide` or `reconcile` (`DecisionRecorder`).
public struct RecordedDecision: Sendable {
    /// The response JSON (compact), exactly as stored: a retry with the same idempotency key
    /// gets these bytes back.
    public var response: String
    /// True when the idempotency key was already decided: `response` is the stored one and
    /// nothing was recorded.
    public var replayed: Bool
    /// The decisions made by this call (empty when replayed: a stored response is bytes, not
    /// a `Decision`).
    public var decisions: [Decision]
    /// The entries this call recorded.
    public var recorded: [HistoryEntry]

    public init(response: String, replayed: Bool, decisions: [Decision], recorded: [HistoryEntry]) {
        self.response = response
        self.replayed = replayed
        self.decisions = decisions
        self.recorded = recorded
    }
}
