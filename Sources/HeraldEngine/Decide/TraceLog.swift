import HeraldPolicy

/// A decision's trace as the engine records it: one plain-data record per stage, turned into
/// `TraceStep`s only when someone reads `Decision.trace` (`json()`, `herald explain`).
///
/// This is the trace's summary level, always on and nearly free: a record is the stage, the
/// outcome, the cited rule and a note code, with no reference counts and no text. The
/// record's citation and the names its note refers to belong to the type's table, which the
/// decision holds (one reference for the whole trace). Notes that need more than a code (verdicts,
/// deferrals by caps) are kept as `TraceText` beside the records.
struct TraceLog: Sendable {
    var records: TraceRecords
    /// The notes records refer to by `TraceNote.detail(index)`.
    var details: [TraceText]
    /// What `TraceNote.timing` and `TraceNote.key` read.
    var facts: TraceFacts

    /// The steps, with their notes formatted; `table` is the one whose citations and channel
    /// names the records point at (the decision holds it).
    func steps(table: TypeTable) -> [TraceStep] {
        records.map { record in
            TraceStep(stage: record.stage.stage, outcome: record.outcome,
                      citation: record.citation?.takeUnretainedValue(), detailText: text(of: record.note, table: table))
        }
    }

    private func text(of note: TraceNote, table: TypeTable) -> TraceText? {
        switch note {
        case .none: nil
        case .flushMember: .text("member notification for flush")
        case .rulesFalse(let n): .text("\(n) rule(s) false")
        case .capsHaveRoom(let n): .text("\(n) cap(s) have room")
        case .chosenChannel(let index): .text("channel `\(channelName(index, table: table))`")
        case .renderedOn(let index): .text("on `\(channelName(index, table: table))`")
        case .key: .text("key `\(facts.dedupeKey ?? "")`")
        case .timing: .text(timingText(table: table))
        case .batchingWindow:
            table.batching.map { plan in
                .text("no other member of `\(plan.name)` within \(DecisionRun.duration(plan.window))")
            }
        case .detail(let index): details[Int(index)]
        }
    }

    func channelName(_ index: Int16, table: TypeTable) -> String {
        if index < 0 { return table.fallbackChoice?.name ?? "" }
        let choices = table.channelChoices
        return Int(index) < choices.count ? choices[Int(index)].name : ""
    }

    /// The timing stage's note: how the trigger was aligned and where quiet hours moved it.
    private func timingText(table: TypeTable) -> String {
        let timing = table.type.timing, zone = facts.zone
        var detail: String
        switch timing.at {
        case .immediate: detail = "immediate"
        case .reminderTime: detail = "aligned to reminder time \(DecisionRun.clock(facts.reminderTime))"
        case .localTime(let s): detail = "aligned to local time \(DecisionRun.clock(s))"
        case .param(let name): detail = "at param `\(name)`"
        case .state(let path): detail = "at `state.\(path.joined(separator: "."))`"
        }
        let offset = timing.offset
        if offset != 0 { detail += " \(offset < 0 ? "-" : "+")\(DecisionRun.duration(abs(offset)))" }
        if facts.trainingDay { detail += "; moved to the next training day" }
        if let q = facts.quietHours {
            detail += "; deferred from \(DecisionRun.localClock(facts.quietFrom, zone)) to "
                + "\(DecisionRun.localClock(facts.quietTo, zone)) (quiet hours \(DecisionRun.window(q)))"
        }
        return detail + "; \(DecisionRun.localClock(facts.timingAt, zone))"
    }
}

/// The values a trace's coded notes are formatted from, recorded as the stages run.
struct TraceFacts: Sendable {
    /// The zone the local clocks in notes are read in.
    var zone: Zone
    /// The key the dedupe stage checked.
    var dedupeKey: String?
    /// The user's reminder time (seconds after midnight) when timing aligned to it.
    var reminderTime = 0
    /// Timing moved the notification to the next training day.
    var trainingDay = false
    /// A quiet-hours deferral from `quietFrom` to `quietTo`.
    var quietHours: QuietHours?
    var quietFrom = 0
    var quietTo = 0
    /// The delivery instant when the timing stage passed.
    var timingAt = 0
}

/// One stage of the pipeline, as a record stores it.
enum StageCode: UInt8, CaseIterable, Sendable {
    case request, eligibility, preferences, permission, suppression, dedupe, timing, caps, batching, render

    var stage: TraceStep.Stage {
        switch self {
        case .request: .request
        case .eligibility: .eligibility
        case .preferences: .preferences
        case .permission: .permission
        case .suppression: .suppression
        case .dedupe: .dedupe
        case .timing: .timing
        case .caps: .caps
        case .batching: .batching
        case .render: .render
        }
    }
}

/// One trace step as recorded: plain data (copied without reference counting).
struct TraceRecord: Sendable {
    // Widest first, so that a record is 16 bytes (the note is 5, the codes 1 each).
    /// Unretained: the log's table owns it.
    var citation: Unmanaged<Citation>?
    var note: TraceNote
    var stage: StageCode
    var outcome: TraceStep.Outcome

    init(stage: StageCode, outcome: TraceStep.Outcome, citation: Unmanaged<Citation>?, note: TraceNote) {
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

/// A decision's trace records, kept inline: a decision records at most one per stage (ten),
/// so they fit in a fixed buffer that needs no allocation and, being plain data, nothing to
/// release. Appending past `capacity` (which the pipeline never does) goes to `overflow`.
struct TraceRecords: Sendable {
    static let capacity = 12
    private var inline: (TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord,
                         TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord)
    private var inlineCount: UInt8 = 0
    private var overflow: Overflow?

    private final class Overflow: @unchecked Sendable {
        var records: [TraceRecord] = []
    }

    init() {
        let empty = TraceRecord(stage: .request, outcome: .skip, citation: nil, note: .none)
        inline = (empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty)
    }

    /// `first` (at most `capacity` records), then `more`.
    init(_ first: UnsafeBufferPointer<TraceRecord>, more: [TraceRecord]) {
        self.init()
        assign(first, more: more)
    }

    /// Replaces the records with `first` (at most `capacity` records), then `more`, in place.
    mutating func assign(_ first: UnsafeBufferPointer<TraceRecord>, more: [TraceRecord]) {
        overflow = nil
        let count = min(first.count, Self.capacity)
        withUnsafeMutablePointer(to: &inline) {
            $0.withMemoryRebound(to: TraceRecord.self, capacity: Self.capacity) { records in
                if let base = first.baseAddress { records.update(from: base, count: count) }
            }
        }
        inlineCount = UInt8(count)
        for record in more { append(record) }
    }

    var count: Int { Int(inlineCount) + (overflow?.records.count ?? 0) }

    @inline(__always)
    mutating func append(_ record: TraceRecord) {
        guard Int(inlineCount) < Self.capacity else {
            if overflow == nil { overflow = Overflow() }
            overflow!.records.append(record)
            return
        }
        let index = Int(inlineCount)
        withUnsafeMutablePointer(to: &inline) {
            $0.withMemoryRebound(to: TraceRecord.self, capacity: Self.capacity) { $0[index] = record }
        }
        inlineCount &+= 1
    }

    /// The records in order.
    func map<T>(_ transform: (TraceRecord) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        var copy = inline
        withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: TraceRecord.self, capacity: Self.capacity) { records in
                for index in 0 ..< Int(inlineCount) { result.append(transform(records[index])) }
            }
        }
        for record in overflow?.records ?? [] { result.append(transform(record)) }
        return result
    }
}
