import HeraldPolicy
import HeraldSyntax

/// The user's effective scalar preferences: the request's, with the policy's `defaults`
/// filling what it leaves out. The toggles, training days and muted ids are read from the
/// request's `PreferencesInput` where they are (`trainingDays(_:)`, `categoryEnabled`, …), so
/// a decision copies none of its collections.
struct EffectivePreferences {
    let zone: Zone
    let pausedAll: Bool
    /// Seconds since local midnight.
    let reminderTime: Int
    /// nil: none.
    let quietHours: QuietHoursWindow?
    let maxPerDay: Int?
}

/// What expressions read for one request: state and user values converted by the declared
/// schema, the type's params, preferences, the trigger and the ledger (`sent`).
///
/// One allocation per decision: the request's fields live in the header and its converted
/// values in the same object's tail (`ManagedBuffer`), one slot per declared `state`/`user`
/// field (`engine.fields`) then one per param of the type, `.null` where a value is absent.
/// Converting a value stores it at its slot and reading one loads it: no search, no copy
/// of a value table.
///
/// The engine's core and the type's table are held unowned: a context lives only for one
/// `decide` call, during which the caller holds the engine (and the engine its tables), so
/// holding them strongly would only count references. Nothing a decision returns refers to
/// its context.
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
        /// How many trace records the stages wrote (the first `TraceRecords.capacity` are in
        /// the tail after the value slots, the rest, which the pipeline never makes, here).
        var recordCount = 0
        var moreRecords: [TraceRecord] = []
        /// Slots `0 ..< fieldCount` are `engine.fields`, then the type's params.
        let fieldCount: Int
        let slotCount: Int
    }

    /// A context for `request` with every slot absent; the caller converts the request's
    /// values into it (`slots`). `request` must stay valid while the context is used (for one
    /// `decide` call).
    static func make(engine: Engine, table: TypeTable, request: UnsafePointer<DecisionRequest>, now: Int,
                     prefs: consuming EffectivePreferences, ledger: LedgerIndex) -> RequestContext {
        let fieldCount = engine.core.fields.count
        let slotCount = fieldCount + table.paramNames.count
        let fields = Fields(core: engine.core, table: table, request: request, ledger: ledger, now: now,
                            userID: "", renderedSubject: nil, prefs: prefs, fieldCount: fieldCount, slotCount: slotCount)
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

    /// The trace records written so far: the first ones where the context keeps them (valid
    /// while it lives), then the rest.
    var records: (first: UnsafeBufferPointer<TraceRecord>, more: [TraceRecord]) {
        (UnsafeBufferPointer(start: recordBase, count: min(fields.pointee.recordCount, TraceRecords.capacity)),
         fields.pointee.moreRecords)
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

    /// Where converted values go: the field slots, and the param slots after them.
    var slots: SlotWriter {
        withUnsafeMutablePointerToElements { values in SlotWriter(base: values, count: fields.pointee.slotCount) }
    }

    /// Where the type's param values go (param `i` at `params.base[i]`).
    var paramSlots: SlotWriter {
        withUnsafeMutablePointerToElements { values in
            SlotWriter(base: values + fields.pointee.fieldCount, count: fields.pointee.slotCount - fields.pointee.fieldCount)
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
        case .triggerAt?: return .instant(at)
        case .subject?: return subject.map(Value.string)
        case .prefsPausedAll?: return .bool(prefs.pausedAll)
        case .prefsReminderTime?: return .time(prefs.reminderTime)
        case .prefsMaxPerDay?: return prefs.maxPerDay.map(Value.int)
        default: return value(at: path)
        }
    }

    func value(at path: [String]) -> Value? {
        guard let root = path.first else { return nil }
        switch root {
        case "state", "user":
            guard let slot = engine.fieldSlots[path] else { return nil }
            return field(slot)
        case "params":
            guard path.count == 2, let slot = table.paramSlot(path[1]) else { return nil }
            return param(slot)
        case "now":
            return .instant(now)
        case "subject":
            return subject.map(Value.string)
        case "trigger":
            return path.count == 2 && path[1] == "at" ? .instant(at) : nil
        case "local":
            guard path.count == 2 else { return nil }
            let local = prefs.zone.localDateTime(of: at)
            switch path[1] {
            case "date": return .date(local.date)
            case "weekday": return .weekday(local.weekday)
            case "time": return .time(local.secondOfDay)
            default: return nil
            }
        case "prefs":
            return engine.preferenceValue(path, prefs: prefs, input: input)
        default:
            return nil
        }
    }

    func sent(_ target: String, within window: SentWindow) -> Int {
        engine.sentCount(target, within: window, ledger: ledger, zone: prefs.zone, now: now)
    }

    func sent(_ target: String, within window: SentWindow, statuses: [String]) -> Int {
        engine.sentCount(target, within: window, statuses: statuses, ledger: ledger, zone: prefs.zone, now: now)
    }
}

/// Converted values by slot, written in place: `base[0 ..< count]`, initialized, `.null`
/// where absent. Converting never stores `.null` itself (a `null` of an optional field is
/// absent), so `.null` marks absence unambiguously.
struct SlotWriter {
    let base: UnsafeMutablePointer<Value>
    let count: Int

    /// Sets `slot` (nil: absent); slots out of range are ignored.
    @inline(__always)
    func set(_ slot: Int, _ value: consuming Value?) {
        guard slot >= 0, slot < count else { return }
        base[slot] = value ?? .null
    }
}

extension Engine {
    /// A `prefs.*` name: the effective preferences, with toggles defaulted by the bundle.
    func preferenceValue(_ path: [String], prefs: EffectivePreferences, input: PreferencesInput) -> Value? {
        guard path.count >= 2 else { return nil }
        switch path[1] {
        case "timezone": return .string(prefs.zone.identifier)
        case "pausedAll": return .bool(prefs.pausedAll)
        case "reminderTime": return .time(prefs.reminderTime)
        case "quietHours":
            guard path.count == 3, let q = prefs.quietHours else { return nil }
            return path[2] == "start" ? .time(q.start) : path[2] == "end" ? .time(q.end) : nil
        case "trainingDays": return .list(trainingDays(input).map(Value.weekday))
        case "maxPerDay": return prefs.maxPerDay.map(Value.int)
        case "muted": return .list((input.muted ?? []).map(Value.string))
        case "categories":
            guard path.count == 3 else { return nil }
            return .bool(categoryEnabled(path[2], categories: input.categories))
        case "channels":
            guard path.count == 3 else { return nil }
            return .bool(channelEnabled(path[2], channels: input.channels))
        case "types":
            guard path.count == 3 else { return nil }
            return .bool(input.types[path[2]] ?? bundle.types[path[2]]?.defaultOn ?? true)
        default: return nil
        }
    }

    /// The user's training days: the request's, else the policy's default.
    func trainingDays(_ input: PreferencesInput) -> [Int] {
        input.trainingDays ?? core.bundle.defaults.trainingDays
    }

    /// `sent(target, window)`: the ledger's count of a type or category in the window around `now`.
    func sentCount(_ target: String, within window: SentWindow, ledger: LedgerIndex, zone: Zone, now: Int) -> Int {
        let scope: LedgerScope = bundle.types.contains(target) ? .type(target) : .category(target)
        return ledger.count(scope, in: zone.window(Self.window(window), containing: now))
    }

    /// `sent(target, window, [statuses])`: the entries of a type or category whose status is
    /// one of `statuses` (any status, also those caps do not count), in the window around
    /// `now`. Answered by the ledger's per-status index.
    /// - Complexity: O(s log h) for s statuses and h entries.
    func sentCount(_ target: String, within window: SentWindow, statuses: [String], ledger: LedgerIndex, zone: Zone, now: Int) -> Int {
        let scope: LedgerScope = bundle.types.contains(target) ? .type(target) : .category(target)
        let wanted = Set(statuses.compactMap(HistoryEntry.Status.init(rawValue:)))
        return ledger.count(scope, statuses: wanted, in: zone.window(Self.window(window), containing: now))
    }

    static func window(_ window: SentWindow) -> Window {
        switch window {
        case .day: .day
        case .week: .week
        case .calendarWeek: .calendarWeek
        case .month: .month
        case .lifetime: .lifetime
        case .duration(let d): .rolling(d)
        }
    }

    func categoryEnabled(_ name: String, categories: [String: Bool]) -> Bool {
        categories[name] ?? bundle.categories[name]?.defaultOn ?? true
    }

    func channelEnabled(_ name: String, channels: [String: Bool]) -> Bool {
        guard let channel = bundle.channels[name], channel.toggle else { return true }
        return channels[name] ?? channel.defaultOn
    }

    /// The effective preferences. When the request's are invalid their problems are added to
    /// `errors` and the policy's defaults in UTC stand in, so that the rest of the request
    /// can still be checked (a decision is then never made).
    func preferences(_ input: PreferencesInput, errors: inout [RequestError]) -> EffectivePreferences {
        // A request that states none of the scalars (the toggles are read where they are)
        // takes the policy's defaults, resolved once per engine.
        if input.timezone == nil, input.pausedAll == nil, input.reminderTime == nil, input.quietHours == nil,
           input.maxPerDay == nil, let defaults = core.defaultPreferences {
            return defaults
        }
        let defaults = core.bundle.defaults
        let zoneName = input.timezone ?? defaults.timezone
        let known = zoneName == defaults.timezone ? core.defaultZone : nil
        guard let zone = known ?? Zone(identifier: zoneName) else {
            errors.append(RequestError(path: input.timezone == nil ? "defaults.timezone" : "prefs.timezone",
                                       message: "unknown time zone `\(zoneName)`"))
            return EffectivePreferences(zone: .utc, pausedAll: defaults.pausedAll, reminderTime: defaults.reminderTime,
                                        quietHours: defaults.quietHours, maxPerDay: defaults.maxPerDay)
        }
        var quiet = defaults.quietHours
        switch input.quietHours {
        case nil: break
        case .off?: quiet = nil
        case .window(let start, let end)?: quiet = QuietHoursWindow(start: start, end: end)
        }
        return EffectivePreferences(
            zone: zone, pausedAll: input.pausedAll ?? defaults.pausedAll,
            reminderTime: input.reminderTime ?? defaults.reminderTime, quietHours: quiet,
            maxPerDay: input.maxPerDay ?? defaults.maxPerDay)
    }

    /// Converts the request's `state` and `user` by the declared schema into `slots` (indexed
    /// like `fields`), and returns the user's `id` ("" when absent or not a string). Wrong
    /// types and unknown fields are request errors; absent fields stay absent
    /// (`missing_data` later, and only when an expression needs them).
    /// - Complexity: one comparison of names per schema child per member present; paths are
    ///   built only for errors.
    @discardableResult
    func convertFields(state: JSON, user: JSON, into slots: SlotWriter, errors: inout [RequestError]) -> String {
        var reader = ValueReader()
        var userID = ""
        reader.object(state, node: core.stateSlots, into: slots, userID: nil)
        reader.object(user, node: core.userSlots, into: slots, userID: &userID)
        if !reader.errors.isEmpty { errors += reader.errors }
        return userID
    }

    /// `convertFields` into a new array indexed like `fields` (`.null`: absent).
    func fieldValues(state: JSON, user: JSON, errors: inout [RequestError]) -> [Value] {
        var values = [Value](repeating: .null, count: fields.count)
        values.withUnsafeMutableBufferPointer { buffer in
            _ = convertFields(state: state, user: user, into: SlotWriter(base: buffer.baseAddress!, count: buffer.count),
                              errors: &errors)
        }
        return values
    }

    /// Converts the request's `params` by the type's declared params into `slots` (indexed
    /// like `table.type.params`).
    func convertParams(_ params: JSON, table: TypeTable, into slots: SlotWriter, errors: inout [RequestError]) {
        // The table is read through an unretained reference (the engine holds it).
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { table in
            guard case .object(let members) = params else { return }
            var reader = ValueReader()
            members.withUnsafeBufferPointer { members in
                for index in members.indices {
                    let key = members[index].key
                    guard let slot = table.paramSlot(key) else {
                        var message = "unknown param `\(key)` for type `\(table.type.id)`"
                        if let close = Suggestions.closest(to: key, in: table.paramNames) { message += "; did you mean `\(close)`?" }
                        reader.errors.append(RequestError(path: "params.\(key)", message: message))
                        continue
                    }
                    slots.set(slot, reader.convert(members[index].value, kind: table.paramKinds[slot],
                                                   as: table.paramTypes[slot], path: "params.\(key)"))
                }
            }
            if !reader.errors.isEmpty { errors += reader.errors }
        }
    }
}

/// Converts request JSON to expression values by declared type, collecting problems.
struct ValueReader {
    var errors: [RequestError] = []

    /// Converts the members of `json` by the schema `node` into `slots`. With `userID`, the
    /// object is the user record: its `id` is not part of the schema and is read into
    /// `userID` when it is a string.
    mutating func object(_ json: JSON, node: SchemaSlotNode, into slots: SlotWriter, userID: UnsafeMutablePointer<String>?) {
        guard case .object(let members) = json else {
            fail(node.path, "an object", json)
            return
        }
        members.withUnsafeBufferPointer { members in
            for index in members.indices {
                if let userID, members[index].key.utf8.count == 2, members[index].key == "id" {
                    if case .string(let id) = members[index].value { userID.pointee = id }
                    continue
                }
                guard let child = node.child(members[index].key) else {
                    unknown(members[index].key, in: node)
                    continue
                }
                // The child is read through an unretained reference (the engine's schema tree
                // keeps it alive): converting a request counts no reference per member.
                if let inner = child.object {
                    inner._withUnsafeGuaranteedRef { inner in
                        object(members[index].value, node: inner, into: slots, userID: nil)
                    }
                } else if let leaf = child.leaf {
                    leaf._withUnsafeGuaranteedRef { leaf in
                        slots.set(leaf.slot, convert(members[index].value, kind: leaf.kind, as: leaf.type, path: leaf.path))
                    }
                }
            }
        }
    }

    /// Reports a member the schema does not declare, with the closest declared name.
    private mutating func unknown(_ key: String, in node: SchemaSlotNode) {
        let names = node.children.keys.sorted()
        var message = "unknown field `\(key)`"
        if let close = Suggestions.closest(to: key, in: names) { message += "; did you mean `\(close)`?" }
        errors.append(RequestError(path: node.path + "." + key, message: message))
    }

    mutating func fail(_ path: String, _ expected: String, _ value: JSON) {
        let shown: String
        switch value {
        case .array, .object: shown = value.kindName
        default: shown = value.serialized()
        }
        errors.append(RequestError(path: path, message: "expected \(expected), got \(shown)"))
    }

    /// `convert(_:as:path:)` with the declared type's `LeafKind`: a scalar of the declared kind
    /// converts without reading the `ValueType`; anything else (null, a wrong type, an
    /// enumeration, a list) takes the general conversion.
    @inline(__always)
    mutating func convert(_ json: JSON, kind: LeafKind, as type: ValueType, path: @autoclosure () -> String) -> Value? {
        switch (kind, json) {
        case (.int, .int(let i)): return .int(i)
        case (.bool, .bool(let b)): return .bool(b)
        case (.string, .string(let s)): return .string(s)
        case (.duration, .int(let i)): return .duration(i)
        default: return convert(json, as: type, path: path())
        }
    }

    /// nil for `null` of an optional (absent) and for a problem (reported).
    mutating func convert(_ json: JSON, as type: ValueType, path: @autoclosure () -> String) -> Value? {
        if json.isNull {
            if type.isOptional { return nil }
            fail(path(), Self.describe(type), json)
            return nil
        }
        switch type.unwrapped {
        case .bool:
            if let b = json.boolValue { return .bool(b) }
        case .int:
            if let i = json.intValue { return .int(i) }
        case .duration:
            if let i = json.intValue { return .duration(i) }
        case .string:
            if let s = json.stringValue { return .string(s) }
        case .enumeration(let e):
            if let s = json.stringValue, e.cases.contains(s) { return .string(s) }
        case .instant:
            if let s = json.stringValue {
                if let t = ContractTime.parseInstant(s) { return .instant(t) }
                if RFC3339.isOutOfRange(s) {
                    fail(path(), RFC3339.rangeExpectation, json)
                    return nil
                }
            }
        case .time:
            if let s = json.stringValue, let t = ContractTime.parseTimeOfDay(s) { return .time(t) }
        case .date:
            if let s = json.stringValue, let d = Self.parseDate(s) { return .date(d) }
        case .weekday:
            if let s = json.stringValue, let i = PreferencesInput.weekdayNames.firstIndex(of: s) { return .weekday(i + 1) }
        case .list(let element):
            if let items = json.elements {
                var result: [Value] = []
                for (index, item) in items.enumerated() {
                    if let v = convert(item, as: element, path: "\(path())[\(index)]") { result.append(v) }
                }
                return .list(result)
            }
        case .optional:
            break
        }
        fail(path(), Self.describe(type), json)
        return nil
    }

    static func describe(_ type: ValueType) -> String {
        switch type.unwrapped {
        case .bool: "true or false"
        case .int: "an integer"
        case .duration: "a duration in seconds"
        case .string: "a string"
        case .enumeration(let e): "one of " + e.cases.joined(separator: ", ")
        case .instant: "an RFC 3339 instant"
        case .time: "a time of day \"HH:MM\""
        case .date: "a date \"YYYY-MM-DD\""
        case .weekday: "a weekday (mon … sun)"
        case .list(let t): "an array of \(describe(t).replacingFirstArticle())"
        case .optional(let t): describe(t)
        }
    }

    /// `YYYY-MM-DD` → days since 1970-01-01.
    static func parseDate(_ text: String) -> Int? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? date.days : nil
    }
}

private extension String {
    func replacingFirstArticle() -> String {
        if hasPrefix("an ") { return String(dropFirst(3)) + "s" }
        if hasPrefix("a ") { return String(dropFirst(2)) + "s" }
        return self
    }
}

/// The `state` or `user` schema resolved to value slots, once per engine: converting a
/// request walks its JSON against this tree, comparing each member's name with this
/// object's children and building no path unless it reports an error.
final class SchemaSlotNode: Sendable {
    enum Child: Sendable {
        case object(SchemaSlotNode)
        case value(SchemaSlotLeaf)
    }

    /// One child as converting reads it: everything in one place, the child node or leaf
    /// unretained (this node keeps it alive in `children`).
    struct Entry: @unchecked Sendable {
        let name: String
        /// `name`'s UTF-8 length: a name is compared only when the lengths match, so most
        /// mismatches cost one integer comparison.
        let length: Int
        /// nil for a leaf.
        let object: Unmanaged<SchemaSlotNode>?
        /// nil for an object.
        let leaf: Unmanaged<SchemaSlotLeaf>?
    }

    /// The dotted path of this object (`state.maintenance`).
    let path: String
    let children: [String: Child]
    /// The children sorted by name, in memory this node owns (read without counting a
    /// reference); small objects are searched by comparing names, which beats hashing each
    /// member's key.
    private let entries: PinnedBuffer<Entry>
    /// Name → index in `entries`, for objects with many children.
    private let indexOf: [String: Int]

    /// The child named `name`.
    @inline(__always)
    func child(_ name: String) -> Entry? {
        let entries = entries.buffer
        guard entries.count <= 12 else { return indexOf[name].map { entries[$0] } }
        let length = name.utf8.count
        for i in entries.indices where entries[i].length == length && entries[i].name == name { return entries[i] }
        return nil
    }

    init(schema: [String: SchemaNode], path: [String], slots: [[String]: Int]) {
        self.path = path.joined(separator: ".")
        var children: [String: Child] = [:]
        for (name, node) in schema {
            let childPath = path + [name]
            switch node {
            case .object(let inner):
                children[name] = .object(SchemaSlotNode(schema: inner, path: childPath, slots: slots))
            case .value(let type):
                // Every declared leaf has a slot; one without would be a compiler bug, and
                // then the value is read (type-checked) and dropped.
                children[name] = .value(SchemaSlotLeaf(slot: slots[childPath] ?? -1, type: type, path: childPath.joined(separator: ".")))
            }
        }
        self.children = children
        let sorted = children.keys.sorted()
        entries = PinnedBuffer(sorted.map { name in
            switch children[name]! {
            case .object(let node): Entry(name: name, length: name.utf8.count, object: .passUnretained(node), leaf: nil)
            case .value(let leaf): Entry(name: name, length: name.utf8.count, object: nil, leaf: .passUnretained(leaf))
            }
        })
        indexOf = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
    }

    deinit {
        entries.free()
    }
}

/// A declared leaf of the `state`/`user` schema: its slot in `Engine.fields`, its declared
/// type and its dotted path (for errors). A class, so walking a request retains one reference.
final class SchemaSlotLeaf: Sendable {
    let slot: Int
    let type: ValueType
    let kind: LeafKind
    let path: String

    init(slot: Int, type: ValueType, path: String) {
        self.slot = slot
        self.type = type
        kind = LeafKind(type)
        self.path = path
    }
}

/// How a declared (non-optional) scalar converts from JSON, resolved once per field or param
/// so that converting a request's value reads a byte instead of the `ValueType`; `other`
/// (optionals, enumerations, times, dates, lists) takes the general conversion.
enum LeafKind: UInt8, Sendable {
    case bool, int, duration, string, other

    init(_ type: ValueType) {
        switch type {
        case .bool: self = .bool
        case .int: self = .int
        case .duration: self = .duration
        case .string: self = .string
        default: self = .other
        }
    }
}
