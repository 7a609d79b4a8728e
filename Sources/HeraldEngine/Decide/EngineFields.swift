import HeraldPolicy

/// The fields of a decision the engine made that its type's table already holds: the
/// decision keeps the table (one reference) and an index or a flag for each, and builds the
/// public values when they are read. Only what depends on the request is stored: the copy
/// rendered from templates with placeholders, and the trace's records.
struct EngineFields: Sendable {
    let table: TypeTable
    /// The chosen channel: an index into `table.channelChoices`, -1 for the fallback; nil: none.
    var channelIndex: Int16?
    var usedFallback: Bool
    /// The rule that decided; the table owns it.
    var ruleCitation: Unmanaged<Citation>?
    /// The notification's parts rendered for this request (templates with placeholders, the
    /// badge); nil: no notification. Literal copy, a static link, the thread id and the
    /// interruption level are read from the table.
    var rendered: Decision.Notification?
    var log: TraceLog

    var channel: String? {
        guard let index = channelIndex else { return nil }
        return log.channelName(index, table: table)
    }

    var fallback: String? { usedFallback ? table.fallbackChoice?.name : nil }

    var rule: Decision.Rule? { ruleCitation.map { Decision.Rule(citation: $0.takeUnretainedValue()) } }

    var steps: [TraceStep] { log.steps(table: table) }

    var notification: Decision.Notification? {
        guard var n = rendered else { return nil }
        n.title = n.title ?? table.copyTitle?.template.literal
        n.subtitle = n.subtitle ?? table.copySubtitle?.template.literal
        n.body = n.body ?? table.copyBody?.template.literal
        n.lockscreen = n.lockscreen ?? table.copyLockscreen?.template.literal
        n.link = n.link ?? table.staticLink
        if n.threadId == nil {
            n.threadId = table.threadIdTemplate.map { $0.template.literal } ?? table.type.category
        }
        n.interruptionLevel = table.interruptionLevel
        return n
    }
}
