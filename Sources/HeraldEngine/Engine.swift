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
    public let bundle: PolicyBundle
    let tables: [String: TypeTable]
    /// Declared state and user fields (full paths starting `state`/`user`) → slot.
    let fieldSlots: [[String]: Int]
    let fields: [SchemaField]
    /// Type id → category name, for the ledger.
    let categoryOfType: [String: String]
    let policy: Decision.Policy

    /// Resolves the bundle's per-type tables.
    /// - Complexity: O(types × (caps + rules)), once per bundle.
    public init(bundle: PolicyBundle) {
        self.bundle = bundle
        var slots: [[String]: Int] = [:]
        for (index, field) in bundle.schemaFields.enumerated() { slots[field.path] = index }
        fieldSlots = slots
        fields = bundle.schemaFields
        var categories: [String: String] = [:]
        for type in bundle.types { categories[type.id] = type.category }
        categoryOfType = categories
        policy = Decision.Policy(name: bundle.name, digest: bundle.digest)
        var tables: [String: TypeTable] = [:]
        for type in bundle.types { tables[type.id] = TypeTable(type: type, bundle: bundle) }
        self.tables = tables
    }
}

/// One type with everything the pipeline needs resolved against the bundle.
struct TypeTable: Sendable {
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
    let batchGroup: BatchGroup?
    let route: Route?
    /// Higher keeps capacity first (plan order).
    let priority: Int
    /// Non-optional paths the type's expressions read: absent → `missing_data`.
    let requiredPaths: [[String]]
    /// Param name → index in `type.params`.
    let paramSlots: [String: Int]

    init(type: NotificationType, bundle: PolicyBundle) {
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
            quietHoursSource = type.timing.span
        } else if !names.isDisjoint(with: bundle.quietHours.bypass) {
            quietHours = .bypass
            quietHoursSource = bundle.quietHours.span
        } else {
            quietHours = bundle.quietHours.during == .bypass ? .bypass : bundle.quietHours.during
            quietHoursSource = bundle.quietHours.span ?? bundle.defaults.span
        }
        batchGroup = bundle.batching.first { $0.members.contains(type.id) }
        route = type.link.flatMap { bundle.routes[$0.route] }
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
    }
}

extension SourceSpan {
    /// `path:line:col` of the span's start, as decisions and traces cite it.
    var citation: String { "\(start.path):\(start.line):\(start.column)" }
}
