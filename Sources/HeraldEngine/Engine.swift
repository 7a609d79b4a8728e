public import HeraldPolicy
import HeraldSyntax

/// The interpreter over one compiled policy: `decide`, `plan`, `reconcile` and `flush`.
///
/// Everything that depends only on the bundle is resolved once, in `init`: each type's
/// category, channels, the caps and suppression rules that apply to it, its quiet-hours
/// treatment, batch group, priority and the schema slots its expressions read. A decision
/// then does array and small-dictionary work only. An `Engine` is an immutable value, safe
/// to share across threads.
public struct Engine: Sendable {
    /// The resolved tables, shared by every copy of the engine: copying an `Engine` (or a
    /// decision's reference to it) is one reference count, not a copy of every table.
    let core: EngineCore

    public var bundle: PolicyBundle { core.bundle }
    var tables: TypeIndex { core.types }
    /// Declared state and user fields (full paths starting `state`/`user`) → slot.
    var fieldSlots: [[String]: Int] { core.fieldSlots }
    var fields: [SchemaField] { core.fields }
    /// Type id → category name, for the ledger.
    var categoryOfType: [String: String] { core.categoryOfType }
    var policy: Decision.Policy { core.policy }

    /// Resolves the bundle's per-type tables.
    /// - Complexity: O(types × (caps + rules)), once per bundle.
    public init(bundle: PolicyBundle) {
        core = EngineCore(bundle: bundle)
    }

    /// An engine over resolved tables (a decision's view of the engine deciding it).
    init(core: EngineCore) {
        self.core = core
    }
}

/// Everything an `Engine` resolves from its bundle, once.
final class EngineCore: Sendable {
    let bundle: PolicyBundle
    /// Each type's table, by type id.
    let types: TypeIndex
    let fieldSlots: [[String]: Int]
    let fields: [SchemaField]
    let categoryOfType: [String: String]
    let policy: Decision.Policy
    let stateSlots: SchemaSlotNode
    let userSlots: SchemaSlotNode
    /// The badge expression's required reads (it has no params).
    let badgeReads: [ReadSlot]
    /// The badge expression, evaluated through the one `bundle` keeps.
    let badgeEval: UnownedExpression?
    /// The zone of `defaults.timezone`, resolved once: requests in it (or without one) skip
    /// the zone cache's locked lookup.
    let defaultZone: Zone?
    /// The policy's `defaults` as effective preferences (nil: its zone is unknown), for
    /// requests that state none of the scalar preferences.
    let defaultPreferences: EffectivePreferences?

    init(bundle: PolicyBundle) {
        self.bundle = bundle
        var slots: [[String]: Int] = [:]
        for (index, field) in bundle.schemaFields.enumerated() { slots[field.path] = index }
        fieldSlots = slots
        fields = bundle.schemaFields
        stateSlots = SchemaSlotNode(schema: bundle.state, path: ["state"], slots: slots)
        userSlots = SchemaSlotNode(schema: bundle.user, path: ["user"], slots: slots)
        badgeReads = (bundle.badge?.requiredPaths ?? []).map { ReadSlot(path: $0, fieldSlots: slots, paramSlots: [:]) }
        badgeEval = bundle.badge?.unowned
        var categories: [String: String] = [:]
        for type in bundle.types { categories[type.id] = type.category }
        categoryOfType = categories
        policy = Decision.Policy(name: bundle.name, digest: bundle.digest)
        defaultZone = Zone(identifier: bundle.defaults.timezone)
        let defaults = bundle.defaults
        defaultPreferences = defaultZone.map { zone in
            EffectivePreferences(zone: zone, pausedAll: defaults.pausedAll, reminderTime: defaults.reminderTime,
                                 quietHours: defaults.quietHours, maxPerDay: defaults.maxPerDay)
        }
        var tables: [String: TypeTable] = [:]
        for type in bundle.types { tables[type.id] = TypeTable(type: type, bundle: bundle, fieldSlots: slots) }
        types = TypeIndex(tables)
    }
}

/// Type id → table, for the one lookup every decision makes: open addressing over an
/// unseeded multiply-mix hash of the id's UTF-8 bytes, which for a short id costs a fraction
/// of the standard library's seeded hash. Keys are the catalog's own type ids (not request
/// data), so an unseeded hash is safe here.
struct TypeIndex: Sendable {
    private let names: [String?]
    private let tables: [TypeTable?]
    private let mask: Int

    init(_ tables: [String: TypeTable]) {
        var size = 16
        while size < tables.count * 2 { size *= 2 }
        var names = [String?](repeating: nil, count: size)
        var values = [TypeTable?](repeating: nil, count: size)
        mask = size - 1
        for (name, table) in tables {
            var index = Self.hash(name) & mask
            while names[index] != nil { index = (index &+ 1) & mask }
            names[index] = name
            values[index] = table
        }
        self.names = names
        self.tables = values
    }

    subscript(name: String) -> TypeTable? {
        var index = Self.hash(name) & mask
        while let present = names[index] {
            if present == name { return tables[index] }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// An unseeded hash of the name's UTF-8 bytes, eight bytes a multiply (`KeyTable`'s mix
    /// with a fixed seed): a byte-at-a-time hash is a chain of dependent multiplies, which
    /// for a 17-byte type id cost more than the rest of the lookup.
    static func hash(_ name: String) -> Int {
        Int(truncatingIfNeeded: KeyTable.hash(name, seed: 0x243F_6A88_85A3_08D3))
    }
}

/// One type with everything the pipeline needs resolved against the bundle.
final class TypeTable: Sendable {
    let type: NotificationType
    let category: Category?
    /// The type's channels in preference order (unknown names dropped).
    let channels: [Channel]
    let fallback: Channel?
    /// The type's own suppression rules, then the policy's that match it.
    let suppress: [SuppressRule]
    /// The type's caps, then the policy's that apply to it (not exempt; `match`/`only` fit).
    let caps: [Cap]
    let quietHours: QuietHoursTreatment
    /// Where the quiet-hours treatment comes from (for the trace).
    let quietHoursSource: SourceSpan?
    /// The batch group the type belongs to, as a reference (the stage reads it, never copies it).
    let batching: BatchPlan?
    /// The link's URL template (its route's), when the type has a link whose route compiled.
    let linkURL: RouteTemplate?
    /// The link rendered once, when no binding depends on the request (plain-text bindings).
    let staticLink: String?
    /// Higher keeps capacity first (plan order).
    let priority: Int
    /// Non-optional paths the type's expressions read: absent → `missing_data`.
    let requiredPaths: [[String]]
    /// Param name → index in `type.params`.
    let paramSlots: [String: Int]
    /// The params' names in declaration order (`paramSlot` compares a few names instead of hashing).
    let paramNames: [String]
    /// The params' declared types, like `paramNames`.
    let paramTypes: [ValueType]
    /// How each param converts (`LeafKind`), like `paramNames`.
    let paramKinds: [LeafKind]
    /// The params' names' UTF-8 lengths, like `paramNames`.
    let paramLengths: [Int]

    /// The index of param `name` in `type.params`. A name is compared only when its UTF-8
    /// length matches.
    @inline(__always)
    func paramSlot(_ name: String) -> Int? {
        guard paramNames.count <= 12 else { return paramSlots[name] }
        let length = name.utf8.count
        for i in paramNames.indices where paramLengths[i] == length && paramNames[i] == name { return i }
        return nil
    }
    /// `requiredPaths` resolved to where a request keeps them.
    let requiredReads: [ReadSlot]
    /// Where `timing.at: param|state` reads its instant.
    let timingRead: ReadSlot?
    /// The type or its category is locked (exempt from every preference switch).
    let locked: Bool
    /// The category's toggle when the user's prefs leave it out (on for an undeclared category).
    let categoryDefaultOn: Bool
    /// Per channel (like `channels`): what choosing it reads.
    let channelChoices: [ChannelChoice]
    let fallbackChoice: ChannelChoice?
    /// The rules the trace and decisions cite, with their `path:line:col`, built once.
    let cite: Citations
    /// Per suppression rule (like `suppress`).
    let suppressCitations: [Citation]
    /// Per suppression rule: its condition (nil: always) and reason, read without copying the rule.
    let suppressWhen: [CompiledExpression?]
    /// The conditions the stages evaluate, as unowned evaluators of the expressions this
    /// table keeps (`type.eligible`, the category's `requires`, `suppressWhen`): evaluating
    /// one counts no reference.
    let eligibleEval: UnownedExpression?
    let requiresEval: UnownedExpression?
    let suppressEvals: [UnownedExpression?]
    let suppressReasons: [String]
    /// What rendering reads: the copy templates (none for a silent type), the thread id
    /// template (the type's, else its category's) and the interruption level.
    let copyTitle, copySubtitle, copyBody, copyLockscreen, threadIdTemplate: BoundTemplate?
    /// The idempotency key's template (the type's, else its dedupe key), and the subject's.
    let keyTemplate, subjectTemplate: BoundTemplate?
    let interruptionLevel: String
    /// The rule timing cites when it aligns the trigger (quiet hours cite `cite.quietHours`).
    let timingCitation: Citation
    /// Per cap (like `caps`): what checking it needs, resolved once.
    let capPlans: [CapPlan]
    /// `capPlans` as unretained references in memory this table owns: the caps stage reads
    /// them without counting a reference.
    let capPlanRefs: PinnedBuffer<Unmanaged<CapPlan>>
    /// The batch group's member types, each once.
    let batchMembers: [String]
    /// The bundle's name and digest, which every decision on this type cites.
    let policy: Decision.Policy

    struct Citations: Sendable {
        let missingData, eligible, pausedAll, categoryRequires, categoryToggle, typeToggle, channels, fallback: Citation
        let dedupe, key, quietHours, expires, batching: Citation
    }

    init(type: NotificationType, bundle: PolicyBundle, fieldSlots: [[String]: Int]) {
        self.type = type
        category = bundle.categories[type.category]
        channels = type.channels.compactMap { bundle.channels[$0] }
        fallback = type.fallback.flatMap { bundle.channels[$0] }
        let names: Set<String> = [type.id, type.category]
        func fits(_ list: [String]) -> Bool { list.isEmpty || !names.isDisjoint(with: list) }
        suppress = type.suppress + bundle.suppress.filter { fits($0.match) }
        caps = (type.caps + bundle.caps).filter { cap in
            guard names.isDisjoint(with: cap.exempt) else { return false }
            if cap.owner == nil, !cap.only.isEmpty, names.isDisjoint(with: cap.only) { return false }
            // A channel match is decided per request (the chosen channel); other matches here.
            if cap.owner == nil, !cap.match.isEmpty, cap.scope != .channel {
                let channelNames = Set(type.channels)
                if names.isDisjoint(with: cap.match), channelNames.isDisjoint(with: cap.match) { return false }
            }
            return true
        }
        if let own = type.timing.quietHours {
            quietHours = own
            quietHoursSource = type.keySpans["timing.quietHours"]
        } else if !names.isDisjoint(with: bundle.quietHours.bypass) {
            quietHours = .bypass
            quietHoursSource = bundle.quietHours.span
        } else {
            quietHours = bundle.quietHours.during == .bypass ? .bypass : bundle.quietHours.during
            quietHoursSource = bundle.quietHours.span ?? bundle.defaults.keySpans["quietHours"]
        }
        let batchGroup = bundle.batching.first { $0.members.contains(type.id) }
        linkURL = type.link.flatMap { bundle.routes[$0.route]?.url }
        if let link = type.link, let url = linkURL, link.bindings.allSatisfy(\.value.isLiteral) {
            staticLink = Engine.renderLink(link, url: url) { _ in nil }
        } else {
            staticLink = nil
        }
        if let explicit = type.priority {
            priority = explicit
        } else if let rank = bundle.priorityRank(ofType: type.id) {
            priority = bundle.priorities.count - rank
        } else {
            priority = 0
        }
        var required: [[String]] = []
        var seen: Set<[String]> = []
        var expressions: [CompiledExpression] = []
        if let e = type.eligible { expressions.append(e) }
        if let e = bundle.categories[type.category]?.requires { expressions.append(e) }
        expressions += suppress.compactMap(\.when)
        for cap in caps { if case .expression(let e) = cap.max { expressions.append(e) } }
        for expression in expressions {
            for path in expression.requiredPaths where path.first == "state" || path.first == "user" || path.first == "params" {
                if seen.insert(path).inserted { required.append(path) }
            }
        }
        for param in type.params where !param.type.isOptional {
            let path = ["params", param.name]
            if seen.insert(path).inserted { required.append(path) }
        }
        switch type.timing.at {
        case .param(let name):
            let path = ["params", name]
            if seen.insert(path).inserted { required.append(path) }
        case .state(let p):
            let path = ["state"] + p
            if seen.insert(path).inserted { required.append(path) }
        default: break
        }
        requiredPaths = required
        var slots: [String: Int] = [:]
        for (index, param) in type.params.enumerated() { slots[param.name] = index }
        paramSlots = slots
        paramNames = type.params.map(\.name)
        paramTypes = type.params.map(\.type)
        paramKinds = paramTypes.map(LeafKind.init)
        paramLengths = paramNames.map(\.utf8.count)
        requiredReads = required.map { ReadSlot(path: $0, fieldSlots: fieldSlots, paramSlots: slots) }
        switch type.timing.at {
        case .param(let name): timingRead = ReadSlot(path: ["params", name], fieldSlots: fieldSlots, paramSlots: slots)
        case .state(let p): timingRead = ReadSlot(path: ["state"] + p, fieldSlots: fieldSlots, paramSlots: slots)
        default: timingRead = nil
        }
        locked = type.locked || (category?.locked ?? false)
        categoryDefaultOn = category?.defaultOn ?? true
        channelChoices = channels.map { ch in
            ChannelChoice(ch, categoryKey: "\(type.category).\(ch.name)",
                          categoryDefaultOn: bundle.categories[type.category]?.channels.first { $0.channel == ch.name }?.on ?? true)
        }
        fallbackChoice = fallback.map { ChannelChoice($0, categoryKey: "", categoryDefaultOn: true) }
        let id = type.id
        // Each citation points at the key that decides (`eligible`, `defaults.pausedAll`, …),
        // else at the type's name.
        let keys = type.keySpans
        let keyRule = type.idempotencyKey != nil ? keys["idempotencyKey"] : type.dedupe?.key != nil ? keys["dedupe.key"] : nil
        // A toggle that is off by default is decided by its `default: false`.
        let categoryToggle = category.map { $0.defaultOn ? $0.span : $0.keySpans["default"] ?? $0.span }
        let typeToggle = type.defaultOn ? type.span : keys["default"] ?? type.span
        cite = Citations(
            missingData: Citation(id: id, span: type.span),
            eligible: Citation(id: "\(id).eligible", span: keys["eligible"]),
            pausedAll: Citation(id: "prefs.pausedAll", span: bundle.defaults.keySpans["pausedAll"] ?? type.span),
            categoryRequires: Citation(id: "\(type.category).requires", span: category?.keySpans["requires"]),
            categoryToggle: Citation(id: "prefs.categories.\(type.category)", span: categoryToggle),
            typeToggle: Citation(id: "prefs.types.\(id)", span: typeToggle),
            channels: Citation(id: "\(id).channels", span: keys["channels"] ?? type.span),
            fallback: Citation(id: "\(id).fallback", span: keys["fallback"] ?? type.span),
            dedupe: Citation(id: "\(id).dedupe", span: keys["dedupe"]),
            key: Citation(id: "\(id).key", span: keyRule ?? type.span),
            quietHours: Citation(id: type.timing.quietHours != nil ? "\(id).timing.quietHours" : "quietHours",
                                 span: quietHoursSource ?? type.span),
            expires: Citation(id: "\(id).timing.expires", span: keys["timing.expires"] ?? type.span),
            batching: Citation(id: batchGroup.map { "batching.\($0.name)" } ?? "", span: batchGroup?.span))
        suppressCitations = suppress.map { Citation(id: $0.id, span: $0.span) }
        suppressWhen = suppress.map(\.when)
        suppressEvals = suppressWhen.map { $0?.unowned }
        eligibleEval = type.eligible?.unowned
        requiresEval = category?.requires?.unowned
        suppressReasons = suppress.map(\.reason)
        let copy = type.silent ? nil : type.copy
        func bind(_ template: MessageTemplate?) -> BoundTemplate? { template.map { BoundTemplate($0, params: type.params) } }
        copyTitle = bind(copy?.title)
        copySubtitle = bind(copy?.subtitle)
        copyBody = bind(copy?.body)
        copyLockscreen = bind(copy?.lockscreen)
        threadIdTemplate = bind(type.threadId ?? category?.threadId)
        keyTemplate = bind(type.idempotencyKey ?? type.dedupe?.key)
        subjectTemplate = bind(type.subject)
        interruptionLevel = (type.silent ? .passive : (type.interruption ?? category?.interruption ?? .active)).rawValue
        timingCitation = Citation(id: "\(id).timing", span: keys["timing"] ?? type.span)
        capPlans = caps.map { cap in
            let scopes: [LedgerScope]?
            switch cap.scope {
            case .channel, .subject: scopes = nil
            default: scopes = Self.fixedScopes(of: cap, type: type, bundle: bundle)
            }
            return CapPlan(cap: cap, fixedScopes: scopes)
        }
        capPlanRefs = PinnedBuffer(capPlans.map(Unmanaged.passUnretained))
        var members: [String] = []
        for m in batchGroup?.members ?? [] where !members.contains(m) { members.append(m) }
        batchMembers = members
        policy = Decision.Policy(name: bundle.name, digest: bundle.digest)
        batching = batchGroup.map(BatchPlan.init)
    }

    deinit {
        capPlanRefs.free()
    }

    /// The scopes of a global, type or category cap for `type` (they depend only on the bundle).
    static func fixedScopes(of cap: Cap, type: NotificationType, bundle: PolicyBundle) -> [LedgerScope] {
        switch cap.scope {
        case .global:
            if cap.match.isEmpty || cap.owner != nil { return [.global] }
            return cap.match.map { name in
                if bundle.types.contains(name) { return .type(name) }
                if bundle.categories.contains(name) { return .category(name) }
                return .channel(name)
            }
        case .type: return [.type(cap.owner ?? type.id)]
        case .category: return [.category(type.category)]
        case .channel, .subject: return []
        }
    }
}

/// One cap as a type checks it: the cap, its scopes when they depend only on the bundle,
/// and what its verdicts cite. A class, so the caps stage passes references, not copies.
final class CapPlan: Sendable {
    let cap: Cap
    /// nil: resolved per request (channel and subject caps).
    let fixedScopes: [LedgerScope.Key]?
    /// `fixedScopes` in memory this plan owns (read without counting a reference).
    let fixedScopeBuffer: PinnedBuffer<LedgerScope.Key>?
    /// The cap counts the default statuses, so the request's ledger answers it.
    let defaultCounts: Bool
    /// `cooldown` (no `per`) or `rate_limited`.
    let reason: String
    /// The cap's id and where it is written.
    let citation: Citation

    /// The cap's fields the caps stage reads on every decision, copied out once so the stage
    /// never copies the whole `Cap`.
    let id: String
    /// The cap's `max` when it is a number.
    let fixedMax: Int?
    /// The cap's `max` when it is an expression, evaluated through the one `cap` keeps.
    let maxEval: UnownedExpression?
    let per: CapWindow?
    let cooldown: Int?
    let over: CapOverflow

    init(cap: Cap, fixedScopes: [LedgerScope]?) {
        self.cap = cap
        id = cap.id
        switch cap.max {
        case .fixed(let n)?:
            fixedMax = n
            maxEval = nil
        case .expression(let e)?:
            fixedMax = nil
            maxEval = e.unowned
        case nil:
            fixedMax = nil
            maxEval = nil
        }
        per = cap.per
        cooldown = cap.cooldown
        over = cap.over
        self.fixedScopes = fixedScopes?.map(LedgerScope.Key.init)
        fixedScopeBuffer = self.fixedScopes.map(PinnedBuffer.init)
        defaultCounts = cap.counts == CountedStatus.defaults
        reason = cap.per == nil ? "cooldown" : "rate_limited"
        citation = Citation(id: cap.id, span: cap.span)
    }

    deinit {
        fixedScopeBuffer?.free()
    }
}

/// Elements copied once into memory that their owner, a class, frees in its `deinit`
/// (`free()`): reading them through `buffer` counts no reference, where reading an array
/// property of a class retains the array.
struct PinnedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Element>

    init(_ elements: [Element]) {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = memory.initialize(from: elements)
        buffer = UnsafeBufferPointer(memory)
    }

    /// Destroys and frees the elements; the owner calls this once, in its `deinit`.
    func free() {
        let memory = UnsafeMutableBufferPointer(mutating: buffer)
        memory.deinitialize()
        memory.deallocate()
    }
}

/// A type's batch group, held by reference so the batching stage reads it without copying.
final class BatchPlan: Sendable {
    let group: BatchGroup
    var name: String { group.name }
    var window: Int { group.window }

    init(_ group: BatchGroup) {
        self.group = group
    }
}

/// A channel as the preferences stage chooses it: its master toggle and its category-channel
/// toggle (`category.channel`), resolved once per type.
final class ChannelChoice: Sendable {
    let name: String
    /// The OS must grant permission (push).
    let permission: Bool
    /// The channel has a master toggle in `prefs.channels`, on by default or not.
    let toggle: Bool
    let defaultOn: Bool
    let categoryKey: String
    let categoryDefaultOn: Bool

    init(_ channel: Channel, categoryKey: String, categoryDefaultOn: Bool) {
        name = channel.name
        permission = channel.permission
        toggle = channel.toggle
        defaultOn = channel.defaultOn
        self.categoryKey = categoryKey
        self.categoryDefaultOn = categoryDefaultOn
    }
}

/// Where a name an expression or rule reads lives in a request: a schema slot, a param
/// slot, or (for built-ins) its path.
enum ReadSlot: Sendable {
    case field(Int)
    case param(Int)
    case path([String])

    init(path: [String], fieldSlots: [[String]: Int], paramSlots: [String: Int]) {
        if path.first == "params", path.count == 2, let slot = paramSlots[path[1]] {
            self = .param(slot)
        } else if path.first == "state" || path.first == "user", let slot = fieldSlots[path] {
            self = .field(slot)
        } else {
            self = .path(path)
        }
    }
}

extension SourceSpan {
    /// `path:line:col` of the span's start, as decisions and traces cite it.
    var citation: String { "\(start.path):\(start.line):\(start.column)" }
}
