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
    /// `badge.tabs`: each tab's name, evaluator (through the expression `bundle` keeps) and
    /// required reads.
    let badgeTabs: [(name: String, eval: UnownedExpression, reads: [ReadSlot])]
    /// The zone of `defaults.timezone`, resolved once: requests in it (or without one) skip
    /// the zone cache's locked lookup.
    let defaultZone: Zone?
    /// The policy's `defaults` as effective preferences (nil: its zone is unknown), for
    /// requests that state none of the scalar preferences.
    let defaultPreferences: EffectivePreferences?
    /// `prefs.maxPerDay.allowed` of the catalog (`prefs:`); nil: any non-negative value.
    let maxPerDayAllowed: [Value]?

    init(bundle: PolicyBundle) {
        self.bundle = bundle
        var slots: [[String]: Int] = [:]
        for (index, field) in bundle.schemaFields.enumerated() { slots[field.path] = index }
        fieldSlots = slots
        fields = bundle.schemaFields
        stateSlots = SchemaSlotNode(schema: bundle.state, path: ["state"], slots: slots)
        userSlots = SchemaSlotNode(schema: bundle.user, path: ["user"], slots: slots)
        badgeReads = (bundle.badge?.requiredPaths ?? []).map { ReadSlot(path: $0, fieldSlots: slots, paramSlots: [:]) }
        badgeEval = bundle.badge.map(UnownedExpression.init(keptAlongside:))
        badgeTabs = bundle.badgeTabs.map { tab in
            (tab.name, UnownedExpression(keptAlongside: tab.count),
             tab.count.requiredPaths.map { ReadSlot(path: $0, fieldSlots: slots, paramSlots: [:]) })
        }
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
        maxPerDayAllowed = bundle.prefs["maxPerDay"]?.allowed
        var tables: [String: TypeTable] = [:]
        for type in bundle.types { tables[type.id] = TypeTable(type: type, bundle: bundle, fieldSlots: slots) }
        types = TypeIndex(tables)
    }
}
