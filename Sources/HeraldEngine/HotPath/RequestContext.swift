import HeraldPolicy
import HeraldSyntax

/// What expressions read for one request: state and user values converted by the declared
/// schema, the type's params, preferences, the trigger and the ledger (`sent`).
///
/// One allocation per decision: the request's fields live in the header and its converted
/// values in the same object's tail (`ManagedBuffer`), one slot per declared `state`/`user`
/// field (`engine.fields`) then one per param of the type, `.null` where a value is absent.
/// Converting a value stores it at its slot and reading one loads it: no search, no copy
/// of a value table.
///
/// Invariants (this is the hot path's one `ManagedBuffer`; see HotPath/README.md):
/// - The engine's core and the type's table are held `unowned(unsafe)`: a context lives only
///   for one `decide` call (`Engine.withContext`), during which the caller holds the engine
///   (and the engine its tables). Nothing a decision returns refers to its context.
/// - The request is read through a pointer valid for that same call (`withUnsafePointer`).
/// - Slots `0 ..< slotCount` are always initialized (`.null`: absent) and destroyed in
///   `deinit`; the trace records after them are plain data. Writers and record buffers are
///   lent to closures only (`withFieldSlots`, `withParamSlots`) and copied out (`copyRecords`).
final class RequestContext: ManagedBuffer<RequestContext.Fields, Value>, EvaluationContext {
    /// The context's own fields (a `ManagedBuffer` keeps them in its header).
    ///
    /// The request is read where the caller keeps it (`decide` runs the whole decision
    /// inside `withUnsafePointer` over it): the context copies none of its collections.
    struct Fields {
        unowned(unsafe) let core: EngineCore
        unowned(unsafe) let table: TypeTable
        let request: UnsafePointer<DecisionRequest>
        let ledger: LedgerIndex
        let now: Int
        /// The user's `id`, read while converting `user`.
        var userID: String
        /// The type's `subject` template rendered for this request, when not empty.
        var renderedSubject: String?
        let prefs: EffectivePreferences
        var moreRecords: [TraceRecord] = []
        /// The candidate delivery instant (`delivery.*`), `Int.min` until the run computes it
        /// (only for a type whose table says `judgesAtDelivery`).
        var deliveryAt = Int.min
        /// Slots `0 ..< fieldCount` are `engine.fields`, then the type's params. The counts
        /// below are 32-bit and packed with the flag so that the header stays small: the
        /// context is one `malloc` per decision, kept within glibc's per-thread cache's sizes.
        let fieldCount32: Int32
        let slotCount32: Int32
        /// How many trace records the stages wrote (the first `TraceRecords.capacity` are in
        /// the tail after the value slots, the rest, which the pipeline never makes, in
        /// `moreRecords`).
        var recordCount32: Int32 = 0
        /// `timing.judgedAt: delivery`: `since()`, `local.*` and `sent(…)` windows read
        /// `deliveryAt` instead of `now` / the trigger.
        var judgedAtDelivery = false

        var fieldCount: Int { @inline(__always) get { Int(fieldCount32) } }
        var slotCount: Int { @inline(__always) get { Int(slotCount32) } }
        var recordCount: Int {
            @inline(__always) get { Int(recordCount32) }
            @inline(__always) set { recordCount32 = Int32(truncatingIfNeeded: newValue) }
        }
    }

    /// A context for `request` with every slot absent; the caller converts the request's
    /// values into it (`slots`). `request` must stay valid while the context is used (for one
    /// `decide` call).
    fileprivate static func make(engine: Engine, table: TypeTable, request: UnsafePointer<DecisionRequest>, now: Int,
                     prefs: consuming EffectivePreferences, ledger: LedgerIndex) -> RequestContext {
        let fieldCount = engine.core.fields.count
        // The params, then the type's computed values (`TypeTable.computedEvals`).
        let slotCount = fieldCount + table.paramNames.count + table.computedEvals.count
        let fields = Fields(core: engine.core, table: table, request: request, ledger: ledger, now: now,
                            userID: "", renderedSubject: nil, prefs: prefs,
                            // A bundle's fields and a type's params are counted in the hundreds at most.
                            fieldCount32: Int32(fieldCount), slotCount32: Int32(slotCount))
        let buffer = create(minimumCapacity: slotCount + recordSpace) { _ in fields }
        let context = unsafeDowncast(buffer, to: RequestContext.self)
        context.withUnsafeMutablePointerToElements { $0.initialize(repeating: .null, count: slotCount) }
        return context
    }

    deinit {
        withUnsafeMutablePointers { fields, values in
            // Only values that hold a reference need destroying; the rest are left as they are.
            for index in 0 ..< fields.pointee.slotCount where values[index].holdsReference {
                (values + index).deinitialize(count: 1)
            }
        }
    }

    /// The header, read in place: `header` is a class property, and reading it through the
    /// property would check exclusivity on every access.
    private var fields: UnsafeMutablePointer<Fields> {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0 } }
    }

    var core: EngineCore { fields.pointee.core }
    var table: TypeTable { fields.pointee.table }
    var engine: Engine { Engine(core: fields.pointee.core) }
    /// The trigger instant (`trigger.at`).
    var at: Int { fields.pointee.request.pointee.at }
    var now: Int { fields.pointee.now }
    /// Sets the candidate delivery instant the type's conditions are judged at (docs/time.md,
    /// "When a rule is judged").
    func judge(deliveryAt: Int, atDelivery: Bool) {
        fields.pointee.deliveryAt = deliveryAt
        fields.pointee.judgedAtDelivery = atDelivery
    }
    /// The instant `since()` and `sent(…)` windows are judged at.
    var judgedNow: Int { fields.pointee.judgedAtDelivery ? fields.pointee.deliveryAt : now }
    var permission: Permission { fields.pointee.request.pointee.permission }
    var userID: String {
        _read { yield fields.pointee.userID }
        _modify { yield &fields.pointee.userID }
    }
    /// What per-subject caps count by: the type's `subject` template rendered (when not
    /// empty), else the request's `subject`.
    var subject: String? { fields.pointee.renderedSubject ?? fields.pointee.request.pointee.subject }
    var renderedSubject: String? {
        _read { yield fields.pointee.renderedSubject }
        _modify { yield &fields.pointee.renderedSubject }
    }
    var prefs: EffectivePreferences { _read { yield fields.pointee.prefs } }
    /// The request's own preferences (toggles, training days, muted ids).
    var input: PreferencesInput { _read { yield fields.pointee.request.pointee.prefs } }
    var ledger: LedgerIndex { _read { yield fields.pointee.ledger } }
    /// Room for `TraceRecords.capacity` records after the value slots, in value-sized units.
    private static let recordSpace = (TraceRecords.capacity * MemoryLayout<TraceRecord>.stride
        + MemoryLayout<Value>.stride - 1) / MemoryLayout<Value>.stride

    /// Where the trace records go: the tail's raw memory after the value slots (never
    /// initialized as values), bound to `TraceRecord`, which is plain data.
    private var recordBase: UnsafeMutablePointer<TraceRecord> {
        @inline(__always) get {
            withUnsafeMutablePointerToElements { values in
                UnsafeMutableRawPointer(values + fields.pointee.slotCount)
                    .bindMemory(to: TraceRecord.self, capacity: TraceRecords.capacity)
            }
        }
    }

    /// Copies the trace records written so far into `records` (a decision's), in order.
    func copyRecords(into records: inout TraceRecords) {
        records.assign(UnsafeBufferPointer(start: recordBase, count: min(fields.pointee.recordCount, TraceRecords.capacity)),
                       more: fields.pointee.moreRecords)
    }

    /// Appends a trace record.
    @inline(__always)
    func record(_ record: TraceRecord) {
        let count = fields.pointee.recordCount
        if count < TraceRecords.capacity {
            recordBase[count] = record
        } else {
            fields.pointee.moreRecords.append(record)
        }
        fields.pointee.recordCount = count &+ 1
    }

    /// Runs `body` with the field slots, where converted `state`/`user` values go (lent for
    /// the closure only).
    func withFieldSlots<R>(_ body: (SlotWriter) -> R) -> R {
        withUnsafeMutablePointerToElements { values in body(SlotWriter(base: values, count: fields.pointee.fieldCount)) }
    }

    /// Runs `body` with the type's param slots (param `i` at slot `i`), lent for the closure
    /// only.
    func withParamSlots<R>(_ body: (SlotWriter) -> R) -> R {
        withUnsafeMutablePointerToElements { values in
            body(SlotWriter(base: values + fields.pointee.fieldCount, count: fields.pointee.slotCount - fields.pointee.fieldCount))
        }
    }

    /// The value at slot `index` (already range-checked); nil: absent.
    @inline(__always)
    private func stored(_ index: Int) -> Value? {
        withUnsafeMutablePointerToElements { values in
            if case .null = values[index] { return nil }
            return values[index]
        }
    }

    /// The value of field `slot` (like `engine.fields`); nil: absent or out of range.
    @inline(__always)
    func field(_ slot: Int) -> Value? {
        slot >= 0 && slot < fields.pointee.fieldCount ? stored(slot) : nil
    }

    /// The value of param `slot` (like `table.type.params`); nil: absent or out of range.
    @inline(__always)
    func param(_ slot: Int) -> Value? {
        let index = fields.pointee.fieldCount &+ slot
        return slot >= 0 && index < fields.pointee.slotCount ? stored(index) : nil
    }

    /// The value at a resolved slot; nil: absent.
    @inline(__always)
    func value(_ read: ReadSlot) -> Value? {
        switch read {
        case .field(let slot): field(slot)
        case .param(let slot): param(slot)
        case .path(let path): value(at: path)
        }
    }

    /// A `state`/`user` read the compiler bound to its index in `schemaFields`.
    @inline(__always)
    func value(slot: Int, path: [String]) -> Value? {
        if slot >= 0 { return slot < fields.pointee.fieldCount ? stored(slot) : value(at: path) }
        switch BuiltinRead(rawValue: slot) {
        case .now?: return .instant(now)
        case .localDate?, .localWeekday?, .localTime?:
            guard fields.pointee.judgedAtDelivery else { return value(at: path) }
            let local = prefs.zone.localDateTime(of: fields.pointee.deliveryAt)
            switch BuiltinRead(rawValue: slot) {
            case .localDate?: return .date(local.date)
            case .localWeekday?: return .weekday(local.weekday)
            default: return .time(local.secondOfDay)
            }
        case .triggerAt?: return .instant(at)
        case .subject?: return subject.map(Value.string)
        case .prefsPausedAll?: return .bool(prefs.pausedAll)
        case .prefsReminderTime?: return .time(prefs.reminderTime)
        case .prefsMaxPerDay?: return prefs.maxPerDay.map(Value.int)
        default: return value(at: path)
        }
    }

    func value(at path: [String]) -> Value? {
        let delivery = fields.pointee.deliveryAt == Int.min ? nil : fields.pointee.deliveryAt
        return engine.value(at: path, trigger: at, now: now, local: fields.pointee.judgedAtDelivery ? delivery : nil,
                     delivery: delivery, prefs: prefs, input: input, field: field,
                     param: { name in table.paramSlot(name).flatMap(param) }, subject: { subject })
    }

    func sinceInstant() -> Value? {
        .instant(judgedNow)
    }

    /// `localDate(t)` in the zone the decision resolved (`local.date`'s zone).
    func localDate(of instant: Int) -> Int? {
        prefs.zone.localDate(of: instant)
    }

    func sent(_ target: String, within window: SentWindow) -> Int {
        engine.sentCount(target, within: window, ledger: ledger, zone: prefs.zone, now: judgedNow)
    }

    func sent(_ target: String, within window: SentWindow, statuses: [String]) -> Int {
        engine.sentCount(target, within: window, statuses: statuses, ledger: ledger, zone: prefs.zone, now: judgedNow)
    }

    func sent(_ target: String, after instant: Int, statuses: [String]?) -> Int {
        engine.sentCount(target, after: instant, statuses: statuses, ledger: ledger, now: judgedNow)
    }
}

extension Engine {
    /// Runs `body` with the context of one decision, with no value converted yet. The
    /// context reads the request in place, so it is pinned for the call (without a ledger,
    /// the request's history is indexed here).
    func withContext<R>(_ request: DecisionRequest, table: TypeTable, prefs: EffectivePreferences,
                        ledger: LedgerIndex?, now: Int, _ body: (RequestContext) -> R) -> R {
        let ledger = ledger ?? LedgerIndex(request.history, categories: categoryOfType)
        return withUnsafePointer(to: request) { request in
            body(RequestContext.make(engine: self, table: table, request: request, now: now, prefs: prefs, ledger: ledger))
        }
    }
}
