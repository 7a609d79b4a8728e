import HeraldPolicy
import HeraldSyntax

/// The user's effective preferences: the request's, with the policy's `defaults` filling
/// what it leaves out. Stored inline in the request context (no allocation of its own).
struct EffectivePreferences {
    let zone: Zone
    let pausedAll: Bool
    /// Seconds since local midnight.
    let reminderTime: Int
    /// nil: none.
    let quietHours: QuietHoursWindow?
    let trainingDays: [Int]
    let maxPerDay: Int?
    let muted: [String]
    /// The request's toggles (absent ones take the bundle's defaults).
    let categories: [String: Bool]
    let channels: [String: Bool]
    let types: [String: Bool]

    init(zone: Zone, pausedAll: Bool, reminderTime: Int, quietHours: QuietHoursWindow?, trainingDays: [Int],
         maxPerDay: Int?, muted: [String], input: PreferencesInput) {
        self.zone = zone
        self.pausedAll = pausedAll
        self.reminderTime = reminderTime
        self.quietHours = quietHours
        self.trainingDays = trainingDays
        self.maxPerDay = maxPerDay
        self.muted = muted
        categories = input.categories
        channels = input.channels
        types = input.types
    }
}

/// What expressions read for one request: state and user values converted by the declared
/// schema, the type's params, preferences, the trigger and the ledger (`sent`).
///
/// The engine's core and the type's table are held unowned: a context lives only for one
/// `decide` call, during which the caller holds the engine (and the engine its tables), so
/// holding them strongly would only count references. Nothing a decision returns refers to
/// its context.
final class RequestContext: EvaluationContext {
    private unowned(unsafe) let core: EngineCore
    unowned(unsafe) let table: TypeTable
    var engine: Engine { Engine(core: core) }
    /// The trigger instant (`trigger.at`).
    let at: Int
    /// The user's `id` (read from the request once).
    let userID: String
    let permission: Permission
    let now: Int
    let prefs: EffectivePreferences
    /// Indexed like `engine.fields`; nil: absent.
    let fieldValues: SlotValues
    /// Indexed like `table.type.params`; nil: absent.
    let paramValues: SlotValues
    let ledger: LedgerIndex
    /// The subject (type's `subject` template, else the request's).
    var subject: String?

    /// `prefs` is never nil (the caller checked); taken as an optional so that it is moved in, not copied.
    init(engine: Engine, table: TypeTable, request: DecisionRequest, now: Int, prefs: consuming EffectivePreferences?,
         fieldValues: consuming SlotValues, paramValues: consuming SlotValues, ledger: LedgerIndex, subject: String?) {
        core = engine.core
        self.table = table
        at = request.at
        userID = request.userID
        permission = request.permission
        self.now = now
        self.prefs = (consume prefs)!
        self.fieldValues = fieldValues
        self.paramValues = paramValues
        self.ledger = ledger
        self.subject = subject
    }

    /// The value at a resolved slot; nil: absent.
    @inline(__always)
    func value(_ read: ReadSlot) -> Value? {
        switch read {
        case .field(let slot): fieldValues[slot]
        case .param(let slot): paramValues[slot]
        case .path(let path): value(at: path)
        }
    }

    /// A `state`/`user` read the compiler bound to its index in `schemaFields`.
    @inline(__always)
    func value(slot: Int, path: [String]) -> Value? {
        if slot >= 0 { return slot < fieldValues.count ? fieldValues[slot] : value(at: path) }
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
            return fieldValues[slot]
        case "params":
            guard path.count == 2, let slot = table.paramSlot(path[1]) else { return nil }
            return paramValues[slot]
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
            return preference(path)
        default:
            return nil
        }
    }

    private func preference(_ path: [String]) -> Value? {
        engine.preferenceValue(path, prefs: prefs)
    }

    func sent(_ target: String, within window: SentWindow) -> Int {
        engine.sentCount(target, within: window, ledger: ledger, zone: prefs.zone, now: now)
    }

    func sent(_ target: String, within window: SentWindow, statuses: [String]) -> Int {
        engine.sentCount(target, within: window, statuses: statuses, ledger: ledger, zone: prefs.zone, now: now)
    }
}

extension Engine {
    /// A `prefs.*` name: the effective preferences, with toggles defaulted by the bundle.
    func preferenceValue(_ path: [String], prefs: EffectivePreferences) -> Value? {
        guard path.count >= 2 else { return nil }
        switch path[1] {
        case "timezone": return .string(prefs.zone.identifier)
        case "pausedAll": return .bool(prefs.pausedAll)
        case "reminderTime": return .time(prefs.reminderTime)
        case "quietHours":
            guard path.count == 3, let q = prefs.quietHours else { return nil }
            return path[2] == "start" ? .time(q.start) : path[2] == "end" ? .time(q.end) : nil
        case "trainingDays": return .list(prefs.trainingDays.map(Value.weekday))
        case "maxPerDay": return prefs.maxPerDay.map(Value.int)
        case "muted": return .list(prefs.muted.map(Value.string))
        case "categories":
            guard path.count == 3 else { return nil }
            return .bool(categoryEnabled(path[2], categories: prefs.categories))
        case "channels":
            guard path.count == 3 else { return nil }
            return .bool(channelEnabled(path[2], channels: prefs.channels))
        case "types":
            guard path.count == 3 else { return nil }
            return .bool(prefs.types[path[2]] ?? bundle.types[path[2]]?.defaultOn ?? true)
        default: return nil
        }
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

    /// The effective preferences, or the problems with the request's.
    func preferences(_ input: PreferencesInput, errors: inout [RequestError]) -> EffectivePreferences? {
        let defaults = bundle.defaults
        let zoneName = input.timezone ?? defaults.timezone
        let known = zoneName == defaults.timezone ? core.defaultZone : nil
        guard let zone = known ?? Zone(identifier: zoneName) else {
            errors.append(RequestError(path: input.timezone == nil ? "defaults.timezone" : "prefs.timezone",
                                       message: "unknown time zone `\(zoneName)`"))
            return nil
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
            trainingDays: input.trainingDays ?? defaults.trainingDays, maxPerDay: input.maxPerDay ?? defaults.maxPerDay,
            muted: input.muted ?? [], input: input)
    }

    /// The request's `state` and `user` converted by the declared schema. Wrong types and
    /// unknown fields are request errors; absent fields stay nil (`missing_data` later, and
    /// only when an expression needs them).
    func schemaValues(_ request: DecisionRequest, errors: inout [RequestError]) -> SlotValues {
        schemaValues(state: request.state, user: request.user, errors: &errors)
    }

    /// `schemaValues` of a request's `state` and `user` objects.
    /// - Complexity: one hashed lookup per member present; paths are built only for errors.
    func schemaValues(state: JSON, user: JSON, errors: inout [RequestError]) -> SlotValues {
        var values = SlotValues(count: fields.count)
        var reader = ValueReader()
        reader.object(state, node: core.stateSlots, into: &values)
        reader.object(user, node: core.userSlots, skipping: "id", into: &values)
        if !reader.errors.isEmpty { errors += reader.errors }
        return values
    }

    /// The request's `params` converted by the type's declared params.
    func paramValues(_ request: DecisionRequest, table: TypeTable, errors: inout [RequestError]) -> SlotValues {
        // The table is read through an unretained reference (the engine holds it).
        Unmanaged.passUnretained(table)._withUnsafeGuaranteedRef { table in
            var values = SlotValues(count: table.paramNames.count)
            var reader = ValueReader()
            guard case .object(let members) = request.params else { return values }
            for member in members {
                guard let slot = table.paramSlot(member.key) else {
                    var message = "unknown param `\(member.key)` for type `\(table.type.id)`"
                    if let close = Suggestions.closest(to: member.key, in: table.paramNames) { message += "; did you mean `\(close)`?" }
                    reader.errors.append(RequestError(path: "params.\(member.key)", message: message))
                    continue
                }
                values.set(slot, reader.convert(member.value, kind: table.paramKinds[slot], as: table.paramTypes[slot],
                                                path: "params.\(member.key)"))
            }
            if !reader.errors.isEmpty { errors += reader.errors }
            return values
        }
    }
}

/// Converts request JSON to expression values by declared type, collecting problems.
struct ValueReader {
    var errors: [RequestError] = []

    /// Converts the members of `json` by the schema `node`; `skipping` names a member that
    /// is not part of the schema (the user's `id`).
    mutating func object(_ json: JSON, node: SchemaSlotNode, skipping: String? = nil, into values: inout SlotValues) {
        guard case .object(let members) = json else {
            fail(node.path, "an object", json)
            return
        }
        for member in members {
            if let skipping, member.key.utf8.count == skipping.utf8.count, member.key == skipping { continue }
            guard let index = node.childIndex(member.key) else {
                let names = node.children.keys.sorted()
                var message = "unknown field `\(member.key)`"
                if let close = Suggestions.closest(to: member.key, in: names) { message += "; did you mean `\(close)`?" }
                errors.append(RequestError(path: node.path + "." + member.key, message: message))
                continue
            }
            // The child is read through an unretained reference (the engine's schema tree
            // keeps it alive): converting a request counts no reference per member.
            if let inner = node.object(at: index) {
                inner._withUnsafeGuaranteedRef { inner in
                    object(member.value, node: inner, into: &values)
                }
            } else if let leaf = node.leaf(at: index) {
                leaf._withUnsafeGuaranteedRef { leaf in
                    values.set(leaf.slot, convert(member.value, kind: leaf.kind, as: leaf.type, path: leaf.path))
                }
            }
        }
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
            if let s = json.stringValue, let t = ContractTime.parseInstant(s) { return .instant(t) }
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
/// request walks its JSON against this tree with one hashed lookup per member and builds no
/// path unless it reports an error.
final class SchemaSlotNode: Sendable {
    enum Child: Sendable {
        case object(SchemaSlotNode)
        case value(SchemaSlotLeaf)
    }

    /// The dotted path of this object (`state.maintenance`).
    let path: String
    let children: [String: Child]
    /// The children as parallel arrays: small objects are searched by comparing names (equal
    /// short names compare in one step), which beats hashing each member's key. A name is
    /// compared only when its UTF-8 length matches (`lengths`), so most mismatches cost one
    /// integer comparison instead of a call into the string comparison. Each child is an
    /// object (`objects`) or a leaf (`leaves`), so reading one matches no enum payload.
    private let names: [String]
    private let lengths: [Int]
    private let objects: [SchemaSlotNode?]
    private let leaves: [SchemaSlotLeaf?]
    /// Name → index in `names`, for objects with many children.
    private let indexOf: [String: Int]

    /// The index of the child named `name`.
    @inline(__always)
    func childIndex(_ name: String) -> Int? {
        guard names.count <= 12 else { return indexOf[name] }
        let length = name.utf8.count
        for i in names.indices where lengths[i] == length && names[i] == name { return i }
        return nil
    }

    /// The object child at `index` (this node keeps it alive), or nil for a leaf.
    @inline(__always)
    func object(at index: Int) -> Unmanaged<SchemaSlotNode>? {
        objects[index].map(Unmanaged.passUnretained)
    }

    /// The leaf child at `index` (this node keeps it alive), or nil for an object.
    @inline(__always)
    func leaf(at index: Int) -> Unmanaged<SchemaSlotLeaf>? {
        leaves[index].map(Unmanaged.passUnretained)
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
        names = sorted
        lengths = sorted.map(\.utf8.count)
        objects = sorted.map { if case .object(let node)? = children[$0] { node } else { nil } }
        leaves = sorted.map { if case .value(let leaf)? = children[$0] { leaf } else { nil } }
        indexOf = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
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

/// Converted request values by slot (schema fields, or a type's params), kept inline: a
/// request carries a handful of values, so the first eight live in the struct itself (no
/// allocation, and nothing to look up in the runtime's generic type caches); more go to a
/// dictionary. A slot holds at most one value; absent slots read as nil.
struct SlotValues {
    /// Slots are `0 ..< count`.
    let count: Int
    private var s0 = -1, s1 = -1, s2 = -1, s3 = -1, s4 = -1, s5 = -1, s6 = -1, s7 = -1
    private var v0 = Value.null, v1 = Value.null, v2 = Value.null, v3 = Value.null
    private var v4 = Value.null, v5 = Value.null, v6 = Value.null, v7 = Value.null
    private var more: [Int: Value] = [:]

    /// `count` empty slots.
    init(count: Int) {
        self.count = count
    }

    /// The value at `slot`; nil: absent (or out of range).
    @inline(__always)
    subscript(slot: Int) -> Value? {
        guard slot >= 0 else { return nil }
        if s0 == slot { return v0 }
        if s1 == slot { return v1 }
        if s2 == slot { return v2 }
        if s3 == slot { return v3 }
        if s4 == slot { return v4 }
        if s5 == slot { return v5 }
        if s6 == slot { return v6 }
        if s7 == slot { return v7 }
        return more.isEmpty ? nil : more[slot]
    }

    /// Sets `slot` (nil: absent). A slot set twice keeps the later value.
    mutating func set(_ slot: Int, _ value: Value?) {
        guard slot >= 0, slot < count else { return }
        let inline = position(of: slot)
        guard let value else {
            if let inline { put(inline, -1, .null) }
            more[slot] = nil
            return
        }
        if let inline {
            put(inline, slot, value)
        } else if let free = position(of: -1), more[slot] == nil {
            put(free, slot, value)
        } else {
            more[slot] = value
        }
    }

    /// The inline position holding `slot` (-1: a free position).
    private func position(of slot: Int) -> Int? {
        for index in 0 ..< 8 where self.slot(at: index) == slot { return index }
        return nil
    }

    private func slot(at index: Int) -> Int {
        switch index {
        case 0: s0
        case 1: s1
        case 2: s2
        case 3: s3
        case 4: s4
        case 5: s5
        case 6: s6
        default: s7
        }
    }

    private mutating func put(_ index: Int, _ slot: Int, _ value: Value) {
        switch index {
        case 0: (s0, v0) = (slot, value)
        case 1: (s1, v1) = (slot, value)
        case 2: (s2, v2) = (slot, value)
        case 3: (s3, v3) = (slot, value)
        case 4: (s4, v4) = (slot, value)
        case 5: (s5, v5) = (slot, value)
        case 6: (s6, v6) = (slot, value)
        default: (s7, v7) = (slot, value)
        }
    }
}
