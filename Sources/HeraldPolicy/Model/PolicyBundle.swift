public import HeraldSyntax

/// A compiled bundle: a catalog and the policy that governs it. Immutable and `Sendable`:
/// one value is shared by every thread that decides.
public struct PolicyBundle: Sendable {
    /// `name:`, or the bundle directory's name.
    public let name: String
    public let description: String?
    /// FNV-1a 64 over the source files' bytes in sorted path order, 16 lowercase hex digits.
    public let digest: String
    /// The files it was compiled from (diagnostic paths), sorted.
    public let files: [String]

    // Catalog
    public let app: App?
    public let channels: NamedTable<Channel>
    public let categories: NamedTable<Category>
    /// The state schema, for expressions.
    public let state: [String: SchemaNode]
    /// The user schema, for expressions.
    public let user: [String: SchemaNode]
    /// Every declared state and user field (leaves), with its span; paths start with
    /// `state` or `user`.
    public let schemaFields: [SchemaField]
    /// The catalog's own reasons (built-in ones are `Reason.builtIn`).
    public let reasons: NamedTable<Reason>
    public let routes: NamedTable<Route>
    /// The app icon's badge (`badge:`, or `badge.total`).
    public let badge: CompiledExpression?
    /// `badge.tabs`, in declaration order; with no `total`, the badge is their sum.
    public var badgeTabs: [BadgeTab] = []
    public let types: NamedTable<NotificationType>

    // Policy
    public let defaults: Defaults
    public let quietHours: QuietHoursPolicy
    /// Policy caps then `cooldowns`, in order (types keep their own).
    public let caps: [Cap]
    /// Policy-wide suppression rules, evaluated after the type's own.
    public let suppress: [SuppressRule]
    /// `backoff:` entries, in order (checked at the start of the caps stage).
    public var backoff: [Backoff] = []
    public let dedupe: DedupePolicy
    public let batching: NamedTable<BatchGroup>
    public let digests: NamedTable<Digest>
    public let priorities: [PriorityEntry]
    public let dst: DSTPolicy
    public let content: ContentRules
    /// When the app may ask for OS notification permission.
    public let prompt: PromptPolicy
    /// What `locked` and `critical` skip (`exemptions:`; the defaults without it).
    public var exemptions = Exemptions()
    /// The catalog's declared preferences (`prefs:`), in declaration order: `prefs.<name>` in
    /// expressions, checked against `allowed` in requests.
    public var prefs = NamedTable<DeclaredPreference>()
    /// What `plan` returns at most (`plan:`; no limits without it).
    public var plan = PlanLimits()
    /// `provisional: passive`: a request whose permission is `provisional` renders quietly
    /// (interruption `passive`, no sound, no badge; docs/seeds.md P25). False: as granted.
    public var provisionalPassive = false
    /// Where `provisional:` is written (the trace cites it).
    public var provisionalSpan: SourceSpan?

    public init(name: String, description: String?, digest: String, files: [String], app: App?,
                channels: NamedTable<Channel>, categories: NamedTable<Category>, state: [String: SchemaNode],
                user: [String: SchemaNode], schemaFields: [SchemaField], reasons: NamedTable<Reason>,
                routes: NamedTable<Route>, badge: CompiledExpression?, types: NamedTable<NotificationType>,
                defaults: Defaults, quietHours: QuietHoursPolicy, caps: [Cap], suppress: [SuppressRule],
                dedupe: DedupePolicy, batching: NamedTable<BatchGroup>, digests: NamedTable<Digest>,
                priorities: [PriorityEntry], dst: DSTPolicy, content: ContentRules, prompt: PromptPolicy = PromptPolicy()) {
        self.name = name
        self.description = description
        self.digest = digest
        self.files = files
        self.app = app
        self.channels = channels
        self.categories = categories
        self.state = state
        self.user = user
        self.schemaFields = schemaFields
        self.reasons = reasons
        self.routes = routes
        self.badge = badge
        self.types = types
        self.defaults = defaults
        self.quietHours = quietHours
        self.caps = caps
        self.suppress = suppress
        self.dedupe = dedupe
        self.batching = batching
        self.digests = digests
        self.priorities = priorities
        self.dst = dst
        self.content = content
        self.prompt = prompt
    }

    /// Whether `code` is a built-in reason or one the catalog declares.
    public func isKnownReason(_ code: String) -> Bool {
        Reason.builtInCodes.contains(code) || reasons.contains(code)
    }

    /// The rank of a type in `priorities` (0 is highest): its own entry, else its category's;
    /// nil when neither is listed. A type's explicit `priority` is separate.
    public func priorityRank(ofType id: String) -> Int? {
        if let i = priorities.firstIndex(where: { $0.name == id }) { return i }
        guard let category = types[id]?.category else { return nil }
        return priorities.firstIndex { $0.name == category }
    }

    /// FNV-1a 64-bit over `bytes`, as 16 lowercase hex digits.
    public static func fnv1a64(_ chunks: [[UInt8]]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for chunk in chunks {
            for byte in chunk {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
