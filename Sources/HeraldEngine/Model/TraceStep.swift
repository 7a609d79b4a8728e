/// One stage of a decision as it ran: which stage, what came of it, which rule spoke.
public struct TraceStep: Sendable, Equatable {
    /// A stage of a decision (`DecisionRun.pipeline`, then `render`), or a prompt decision's
    /// rule step (`prompt`). The raw values are the contract's stage names.
    public enum Stage: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case request, eligibility, preferences, permission, suppression, dedupe, timing, caps, batching, render
        /// A rule of a prompt decision (`Engine.prompt`).
        case prompt

        public var description: String { rawValue }
    }

    /// What the stage did.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Ran and let the notification through (possibly adjusting timing).
        case pass
        /// Ran and decided: the first verdict wins and later stages are skipped.
        case verdict
        /// Did not run (a verdict came earlier, or nothing applies).
        case skip
    }

    public var stage: Stage
    public var outcome: Outcome
    /// The id of the rule that applied (`soft-daily`, `N-MAINT-DUE-TODAY.suppress#1`).
    public var rule: String? {
        get { citation?.id }
        set { citation = Citation.make(id: newValue, source: citation?.source) }
    }
    /// Where that rule is written, `path:line:col`.
    public var source: String? {
        get { citation?.source }
        set { citation = Citation.make(id: citation?.id, source: newValue) }
    }
    /// A short human note (`deferred from 23:10 to 07:00 (quiet hours)`).
    public var detail: String? {
        get { detailText?.string }
        set { detailText = newValue.map(TraceText.text) }
    }
    /// `rule` and `source` as recorded: shared with the engine's tables.
    var citation: Citation?
    /// `detail` as recorded: text, or parts formatted when read.
    var detailText: TraceText?

    public init(stage: Stage, outcome: Outcome, rule: String? = nil, source: String? = nil, detail: String? = nil) {
        self.stage = stage
        self.outcome = outcome
        citation = Citation.make(id: rule, source: source)
        detailText = detail.map(TraceText.text)
    }

    @inline(__always)
    init(stage: consuming Stage, outcome: Outcome, citation: consuming Citation?, detailText: consuming TraceText?) {
        self.stage = stage
        self.outcome = outcome
        self.citation = citation
        self.detailText = detailText
    }

    /// Steps are equal when they read the same, however their text was recorded.
    public static func == (a: TraceStep, b: TraceStep) -> Bool {
        a.stage == b.stage && a.outcome == b.outcome && a.rule == b.rule && a.source == b.source && a.detail == b.detail
    }
}
