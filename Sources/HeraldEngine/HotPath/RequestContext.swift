import HeraldPolicy
import HeraldSyntax

/// What expressions read for one decision: the user context's fields and preferences, the
/// trigger's params, the type's computed values, the trigger instant and the ledger (`sent`).
///
/// One allocation per decision: the run's own fields live in the header, the type's computed
/// values and the trace records in the same object's tail (`ManagedBuffer`). The user's fields
/// and the trigger's params are read where the caller keeps them, by slot: no search, no copy.
///
/// Invariants (this is the hot path's one `ManagedBuffer`; see HotPath/README.md):
/// - The engine's core and the type's table are held `unowned(unsafe)`: a context lives only
///   for one `decide` call (`Engine.withContext`), during which the caller holds the engine
///   (and the engine its tables). Nothing a decision returns refers to its context.
/// - The user context and the trigger are read through pointers valid for that same call
///   (`withUnsafePointer`); their value arrays follow the engine's schema and the type's params.
/// - Slots `0 ..< slotCount` are always initialized (`.null`: absent) and destroyed in
///   `deinit`; the trace records after them are plain data. Writers and record buffers are
///   lent to closures only (`withComputedSlots`) and copied out (`copyRecords`).
final class RequestContext: ManagedBuffer<RequestContext.Fields, Value>, EvaluationContext {
    /// The context's own fields (a `ManagedBuffer` keeps them in its header).
    ///
    /// The user context and the trigger are read where the caller keeps them (`decide` runs
    /// the whole decision inside `withUnsafePointer` over each): the context copies none of
    /// their collections.
    struct Fields {
        unowned(unsafe) let core: EngineCore
        unowned(unsafe) let table: TypeTable
        let user: UnsafePointer<UserContext>
        let trigger: UnsafePointer<Trigger>
        let ledger: LedgerIndex
        let now: Int
        /// The type's `subject` template rendered for this request, when not empty.
        var renderedSubject: String?
        var moreRecords: [TraceRecord] = []
        /// The candidate delivery instant (`delivery.*`), `Int.min` until the run computes it
        /// (only for a type whose table says `judgesAtDelivery`).
        var deliveryAt = Int.min
        /// The user's fields and the trigger's params (their arrays' lengths); the tail's
        /// `slotCount` slots are the type's computed values. 32-bit and packed with the flag
        /// so that the header stays small: the context is one `malloc` per decision.
        let fieldCount32: Int32
        let paramCount32: Int32
        let slotCount32: Int32
        /// How many trace records the stages wrote (the first `TraceRecords.capacity` are in
        /// the tail after the value slots, the rest, which the pipeline never makes, in
        /// `moreRecords`).
        var recordCount32: Int32 = 0
        /// `timing.judgedAt: delivery`: `since()`, `local.*` and `sent(…)` windows read
        /// `deliveryAt` instead of `now` / the trigger.
        var judgedAtDelivery = false

        var fieldCount: Int { @inline(__always) get { Int(fieldCount32) } }
        var paramCount: Int { @inline(__always) get { Int(paramCount32) } }
        var slotCount: Int { @inline(__always) get { Int(slotCount32) } }
        var recordCount: Int {
            @inline(__always) get { Int(recordCount32) }
            @inline(__always) set { recordCount32 = Int32(truncatingIfNeeded: newValue) }
        }
    }

    /// A context for `trigger` and `user` with every computed slot absent. Both must stay valid
    /// while the context is used (for one `decide` call).
    fileprivate static func make(engine: Engine, table: TypeTable, user: UnsafePointer<UserContext>, trigger: UnsafePointer<Trigger>,
                                 now: Int, ledger: LedgerIndex) -> RequestContext {
        assert(user.pointee.fields.count == engine.core.fields.count && trigger.pointee.params.count == table.paramNames.count,
               "a context's inputs follow its engine's schema and its type's params")
        let slotCount = table.computedEvals.count
        let fields = Fields(core: engine.core, table: table, user: user, trigger: trigger, ledger: ledger, now: now,
                            renderedSubject: nil,
                            // A bundle's fields and a type's params are counted in the hundreds at most.
                            fieldCount32: Int32(user.pointee.fields.count), paramCount32: Int32(trigger.pointee.params.count),
                            slotCount32: Int32(slotCount))
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
    var at: Int { fields.pointee.trigger.pointee.at }
    var now: Int { fields.pointee.now }
    /// Sets the candidate delivery instant the type's conditions are judged at (docs/time.md,
    /// "When a rule is judged").
    func judge(deliveryAt: Int, atDelivery: Bool) {
        fields.pointee.deliveryAt = deliveryAt
        fields.pointee.judgedAtDelivery = atDelivery
    }
    /// The instant `since()` and `sent(…)` windows are judged at.
    var judgedNow: Int { fields.pointee.judgedAtDelivery ? fields.pointee.deliveryAt : now }
    var permission: Permission { fields.pointee.user.pointee.permission }
    var userID: String { _read { yield fields.pointee.user.pointee.id } }
    /// What per-subject caps count by: the type's `subject` template rendered (when not
    /// empty), else the request's `subject`.
    var subject: String? { fields.pointee.renderedSubject ?? fields.pointee.trigger.pointee.subject }
    var renderedSubject: String? {
        _read { yield fields.pointee.renderedSubject }
        _modify { yield &fields.pointee.renderedSubject }
    }
    var prefs: EffectivePreferences { _read { yield fields.pointee.user.pointee.effective } }
    /// The user's stated preferences (toggles, training days, muted ids).
    var input: PreferencesInput { _read { yield fields.pointee.user.pointee.prefs } }
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

    /// Runs `body` with the type's computed-value slots (computed value `i` at slot `i`), lent
    /// for the closure only.
    func withComputedSlots<R>(_ body: (SlotWriter) -> R) -> R {
        withUnsafeMutablePointerToElements { values in body(SlotWriter(base: values, count: fields.pointee.slotCount)) }
    }

    /// The value of field `slot` (like `engine.fields`); nil: absent or out of range.
    @inline(__always)
    func field(_ slot: Int) -> Value? {
        guard slot >= 0 && slot < fields.pointee.fieldCount else { return nil }
        let value = fields.pointee.user.pointee.fields[slot]
        if case .null = value { return nil }
        return value
    }

    /// The value of param `slot` (like `table.type.params`, then the type's computed values);
    /// nil: absent or out of range.
    @inline(__always)
    func param(_ slot: Int) -> Value? {
        let params = fields.pointee.paramCount
        if slot >= 0 && slot < params {
            let value = fields.pointee.trigger.pointee.params[slot]
            if case .null = value { return nil }
            return value
        }
        let index = slot &- params
        guard index >= 0 && index < fields.pointee.slotCount else { return nil }
        return withUnsafeMutablePointerToElements { values in
            if case .null = values[index] { return nil }
            return values[index]
        }
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
        if slot >= 0 { return slot < fields.pointee.fieldCount ? field(slot) : value(at: path) }
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
    /// Runs `body` with the context of one decision, no computed value evaluated yet. The
    /// context reads the user context and the trigger in place, so both are pinned for the call
    /// (without a ledger, the user's history is indexed here).
    func withContext<R>(_ trigger: Trigger, user: UserContext, table: TypeTable, ledger: LedgerIndex?, now: Int,
                        _ body: (RequestContext) -> R) -> R {
        let ledger = ledger ?? LedgerIndex(user.history, categories: categoryOfType)
        return withUnsafePointer(to: user) { user in
            withUnsafePointer(to: trigger) { trigger in
                body(RequestContext.make(engine: self, table: table, user: user, trigger: trigger, now: now, ledger: ledger))
            }
        }
    }
}
