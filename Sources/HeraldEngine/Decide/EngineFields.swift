import HeraldPolicy

/// The fields of a decision the engine made that its type's table already holds: the
/// decision keeps the table (one reference) and an index or a flag for each, and builds the
/// public values when they are read. Only what depends on the request is stored: the copy
/// rendered from templates with placeholders, and the trace's records.
struct EngineFields: Sendable {
    /// nil only in `.none`, the fields of a decision whose values are written out.
    let table: TypeTable?
    /// The chosen channel: an index into `table.channelChoices`, -1 for the fallback; nil: none.
    var channelIndex: Int16?
    var usedFallback: Bool
    /// The rule that decided, among `table`'s citations.
    var ruleCitation: TableCitation?
    /// The decision has a notification (`rendered` holds its parts that depend on the request).
    var notifies: Bool
    /// The notification's parts rendered for this request (templates with placeholders, the
    /// badge). Literal copy, a static link, the thread id and the interruption level are read
    /// from the table. Not optional (see `notifies`): an optional struct is destroyed through
    /// its metadata.
    var rendered: Decision.Notification
    var log: TraceLog

    /// No fields (a decision whose table-backed fields are values).
    static var none: EngineFields {
        EngineFields(table: nil, channelIndex: nil, usedFallback: false, ruleCitation: nil, notifies: false,
                     rendered: Decision.Notification(), log: TraceLog(records: TraceRecords(), details: [], facts: TraceFacts(zone: .utc)))
    }

    var channel: String? {
        guard let index = channelIndex, let table else { return nil }
        return log.channelName(index, table: table)
    }

    var fallback: String? { usedFallback ? table?.fallbackChoice?.name : nil }

    var rule: Decision.Rule? {
        guard let ruleCitation, let table else { return nil }
        return Decision.Rule(citation: table.citations[ruleCitation])
    }

    var steps: [TraceStep] {
        guard let table else { return [] }
        return log.steps(table: table)
    }

    var notification: Decision.Notification? {
        guard notifies, let table else { return nil }
        var n = rendered
        n.title = n.title ?? table.copyTitle?.template.literal
        n.subtitle = n.subtitle ?? table.copySubtitle?.template.literal
        n.body = n.body ?? table.copyBody?.template.literal
        n.lockscreen = n.lockscreen ?? table.copyLockscreen?.template.literal
        n.link = n.link ?? table.staticLink
        if n.threadId == nil {
            n.threadId = table.threadIdTemplate.map { $0.template.literal } ?? table.type.category
        }
        // A level the run rendered is a quiet delivery (passive, without sound).
        let quiet = n.interruptionLevel != nil
        n.interruptionLevel = n.interruptionLevel ?? table.interruptionLevel
        if let plan = table.presentation { n.presentation = plan.resolve(n.presentation, channel: channel, quiet: quiet) }
        return n
    }
}
