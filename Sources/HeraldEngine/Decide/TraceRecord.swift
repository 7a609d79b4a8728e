/// One trace step as recorded: plain data (copied without reference counting).
struct TraceRecord: Sendable {
    // Widest first, so that a record is 16 bytes (the citation and the note are 5 each, the
    // codes 1 each).
    /// An index into the citations of the table the log belongs to.
    var citation: TableCitation?
    var note: TraceNote
    var stage: TraceStep.Stage
    var outcome: TraceStep.Outcome

    init(stage: TraceStep.Stage, outcome: TraceStep.Outcome, citation: TableCitation?, note: TraceNote) {
        self.citation = citation
        self.note = note
        self.stage = stage
        self.outcome = outcome
    }
}

/// A step's note as a code; `TraceLog` formats it when the trace is read. Eight bytes at
/// most, so a record is sixteen and a decision's records fit inline.
enum TraceNote: Sendable {
    case none
    /// `member notification for flush`.
    case flushMember
    /// `n rule(s) false`.
    case rulesFalse(Int32)
    /// `n cap(s) have room`.
    case capsHaveRoom(Int32)
    /// `channel \`name\``: the table's `channelChoices[index]`, or its fallback when `index`
    /// is negative.
    case chosenChannel(Int16)
    /// `on \`name\``, like `chosenChannel`.
    case renderedOn(Int16)
    /// `key \`…\``: the key the dedupe stage checked.
    case key
    /// The timing stage's alignment and deferral (`TraceFacts`).
    case timing
    /// The batch group's name and window when no other member is near.
    case batchingWindow
    /// `TraceLog.details[index]`.
    case detail(Int32)
}
