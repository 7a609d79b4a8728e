extension DecisionRun {
    /// The decision's stages in the order they run (docs/engine.md); `render` is the
    /// decision's own last step (`scheduled`, `finishBatch`). A new stage is one file
    /// (`Stages/DecisionRun+Name.swift` with its `check…` method), its case in
    /// `TraceStep.Stage`, one entry here and its arm in `check(_:)`, which the compiler asks
    /// for (the switch is exhaustive).
    static let pipeline: [TraceStep.Stage] = [
        .request, .eligibility, .preferences, .permission, .suppression, .dedupe, .timing, .caps, .batching,
    ]

    /// Runs `stage`: it records its own step (`step`) and returns nil to let the notification
    /// through, or returns the verdict that decides it (`execute` records the verdict's step).
    /// A switch rather than a table of closures, so that the stages inline into the run.
    @inline(__always)
    mutating func check(_ stage: TraceStep.Stage) -> Verdict? {
        switch stage {
        case .request: checkRequest()
        case .eligibility: checkEligibility()
        case .preferences: checkPreferences()
        case .permission: checkPermission()
        case .suppression: checkSuppression()
        case .dedupe: checkDedupe()
        case .timing: checkTiming()
        case .caps: checkCaps()
        case .batching: checkBatching()
        case .render, .prompt: nil  // not stages of the pipeline
        }
    }
}
