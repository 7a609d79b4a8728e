extension DecisionRun {
    /// A stage: it records its own step (`step`) and returns nil to let the notification
    /// through, or returns the verdict that decides it (`execute` records the verdict's step).
    typealias Check = @Sendable (inout DecisionRun) -> Verdict?

    /// The decision's stages in the order they run (docs/engine.md). A new stage is one file
    /// (`Stages/DecisionRun+Name.swift` with its `check…` method), its case in
    /// `TraceStep.Stage` and one entry here; `render` is the decision's own last step
    /// (`scheduled`, `finishBatch`).
    static let pipeline: [(stage: TraceStep.Stage, check: Check)] = [
        (.request, { $0.checkRequest() }),
        (.eligibility, { $0.checkEligibility() }),
        (.preferences, { $0.checkPreferences() }),
        (.permission, { $0.checkPermission() }),
        (.suppression, { $0.checkSuppression() }),
        (.dedupe, { $0.checkDedupe() }),
        (.timing, { $0.checkTiming() }),
        (.caps, { $0.checkCaps() }),
        (.batching, { $0.checkBatching() }),
    ]
}
