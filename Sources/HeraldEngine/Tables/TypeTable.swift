import HeraldPolicy
import HeraldSyntax

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
    /// The digest whose `members` list the type (held for it on every decision); nil for
    /// every other type, which then pays nothing for digest schedules.
    let digest: Digest?
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
    /// The slot of a name a template shows: a param's, else a computed value's (after the
    /// params). Request params are looked up with `paramSlot`, which knows no computed value.
    func templateSlot(_ name: String) -> Int? {
        if let slot = paramSlot(name) { return slot }
        return computedNames.firstIndex(of: name).map { paramNames.count + $0 }
    }
    /// The type's `computed:` values' names and evaluators (of `type.computed`'s expressions,
    /// which `type` keeps), evaluated into the slots after the params once the request is
    /// read. Empty for a type without any: it pays one `isEmpty` test a decision.
    let computedNames: [String]
    let computedEvals: [UnownedExpression]
    /// `requiredPaths` resolved to where a request keeps them.
    let requiredReads: [ReadSlot]
    /// Where `timing.at: param|state` reads its instant.
    let timingRead: ReadSlot?
    /// `timing.judgedAt: delivery`: conditions are judged at the candidate delivery instant.
    let judgesAtDelivery: Bool
    /// `timing.past: skip`: a delivery instant already past is `missed` (read once here, not
    /// through the type's timing on every decision).
    let skipsPast: Bool
    /// The run computes the candidate delivery instant before eligibility: the type is judged
    /// at delivery, or one of its conditions reads `delivery.*`. False for every other type,
    /// which pays nothing.
    let computesDelivery: Bool
    /// The type or its category is locked and the policy's `exemptions.locked` lists the
    /// verdict (by default every preference switch): pause all, the category toggle, the
    /// type toggle (a locked type only), the channel toggles.
    let lockSkipsPausedAll: Bool
    let lockSkipsCategoryOff: Bool
    let lockSkipsTypeOff: Bool
    let lockSkipsChannelOff: Bool
    /// A `critical: true` type and the policy's `exemptions.critical` lists `training_days`.
    let criticalSkipsTrainingDays: Bool
    /// The category's toggle when the user's prefs leave it out (on for an undeclared category).
    let categoryDefaultOn: Bool
    /// Per channel (like `channels`): what choosing it reads.
    let channelChoices: [ChannelChoice]
    /// Some channel is kept with the category off (`keepChannels`): the preferences stage
    /// then looks for one instead of answering `category_off`.
    let hasKeptChannels: Bool
    /// `delivery: all`: `Engine.decideAll` decides each channel on its own.
    let deliversAll: Bool
    let fallbackChoice: ChannelChoice?
    /// Every rule the trace and decisions cite, with its `path:line:col`, built once: what
    /// a `TableCitation` of this table names.
    let citations: CitationTable
    /// The type's own citations (indices into `citations`).
    let cite: Citations
    /// Per suppression rule (like `suppress`).
    let suppressCitations: [TableCitation]
    /// Per suppression rule: its condition (nil: always) and reason, read without copying the rule.
    let suppressWhen: [CompiledExpression?]
    /// The conditions the stages evaluate, as unowned evaluators of the expressions this
    /// table keeps (`type.eligible`, `category`'s `requires`, `suppressWhen`): evaluating
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
    /// `dedupe.by: content`: the key is the type and a fingerprint of these rendered parts
    /// (title, subtitle, body; the link is added from `type.link`); nil: not by content.
    let contentKeyParts: [BoundTemplate?]?
    let interruptionLevel: String
    /// Sound, actions, OS channel, relevance, payload and channel labels (nil: none declared).
    let presentation: PresentationPlan?
    /// Rendering asks the request for part of the presentation: a payload template with
    /// placeholders, or the catalog's tab badges.
    let rendersPresentation: Bool
    /// The params a batch group's or digest's copy names as `{first.<param>}` whose batches can
    /// hold this type, with their slots: its decisions carry them for the flush (P11). Empty
    /// (most types): nothing is rendered for them.
    let batchParams: [(name: String, slot: Int)]
    /// The policy says `provisional: passive` and some channel of the type needs OS permission:
    /// a provisional permission renders quietly (docs/seeds.md P25).
    let provisionalPassive: Bool
    /// The rule timing cites when it aligns the trigger (quiet hours cite `cite.quietHours`).
    let timingCitation: TableCitation
    /// Per cap (like `caps`): what checking it needs, resolved once.
    let capPlans: [CapPlan]
    /// `capPlans` pinned as unretained references (this table keeps `capPlans`): the caps
    /// stage reads them without counting a reference.
    let capPlanRefs: UnownedReferences<CapPlan>
    /// The batch group's member types, each once.
    let batchMembers: [String]
    /// The policy's back-offs that match the type (empty: the caps stage does no back-off work).
    let backoffs: [BackoffPlan]
    /// The bundle's name and digest, which every decision on this type cites.
    let policy: Decision.Policy

    struct Citations: Sendable {
        let missingData, eligible, pausedAll, categoryRequires, categoryToggle, typeToggle, channels, fallback: TableCitation
        let dedupe, key, quietHours, expires, past, batching, provisional: TableCitation
    }

    init(type: NotificationType, bundle: PolicyBundle, fieldSlots: [[String]: Int]) {
        self.type = type
        category = bundle.categories[type.category]
        channels = type.channels.compactMap { bundle.channels[$0] }
        fallback = type.fallback.flatMap { bundle.channels[$0] }
        let names: Set<String> = [type.id, type.category]
        func fits(_ list: [String]) -> Bool { list.isEmpty || !names.isDisjoint(with: list) }
        suppress = type.suppress + bundle.suppress.filter { fits($0.match) }
        // A critical type skips the policy's global caps when `exemptions.critical` lists
        // `caps` (category, channel and subject caps, cooldowns and its own caps still apply).
        let criticalSkipsCaps = type.critical && bundle.exemptions.critical.contains(.caps)
        caps = (type.caps + bundle.caps).filter { cap in
            guard names.isDisjoint(with: cap.exempt) else { return false }
            if criticalSkipsCaps, cap.owner == nil, cap.scope == .global { return false }
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
        } else if type.critical, bundle.exemptions.critical.contains(.quietHours) {
            quietHours = .bypass
            quietHoursSource = bundle.exemptions.criticalSpan
        } else {
            quietHours = bundle.quietHours.during == .bypass ? .bypass : bundle.quietHours.during
            quietHoursSource = bundle.quietHours.span ?? bundle.defaults.keySpans["quietHours"]
        }
        // Quiet hours skipped because the type is critical (`exemptions.critical`), cited as such.
        let quietHoursByExemption = type.timing.quietHours == nil && names.isDisjoint(with: bundle.quietHours.bypass)
            && type.critical && bundle.exemptions.critical.contains(.quietHours)
        let batchGroup = bundle.batching.first { $0.members.contains(type.id) }
        let digestGroup = batchGroup == nil ? bundle.digests.first { $0.members.contains(type.id) } : nil
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
        // A computed value's required reads are the type's too (absent: `missing_data`).
        for expression in expressions + type.computed.map(\.expression) {
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
        case .state(let p), .localState(let p, fallback: nil):
            let path = ["state"] + p
            if seen.insert(path).inserted { required.append(path) }
        default: break
        }
        requiredPaths = required
        judgesAtDelivery = type.timing.judgedAt == .delivery
        skipsPast = type.timing.past == .skip
        computesDelivery = judgesAtDelivery
            || expressions.contains { $0.referencedPaths.contains { $0.first == "delivery" } }
        var slots: [String: Int] = [:]
        for (index, param) in type.params.enumerated() { slots[param.name] = index }
        paramSlots = slots
        paramNames = type.params.map(\.name)
        paramTypes = type.params.map(\.type)
        paramLengths = paramNames.map(\.utf8.count)
        computedNames = type.computed.map(\.name)
        computedEvals = type.computed.map { UnownedExpression(keptAlongside: $0.expression) }
        requiredReads = required.map { ReadSlot(path: $0, fieldSlots: fieldSlots, paramSlots: slots) }
        switch type.timing.at {
        case .param(let name): timingRead = ReadSlot(path: ["params", name], fieldSlots: fieldSlots, paramSlots: slots)
        case .state(let p), .localState(let p, _): timingRead = ReadSlot(path: ["state"] + p, fieldSlots: fieldSlots, paramSlots: slots)
        default: timingRead = nil
        }
        let locked = type.locked || (category?.locked ?? false)
        let exemptions = bundle.exemptions
        lockSkipsPausedAll = locked && exemptions.locked.contains(.pausedAll)
        lockSkipsCategoryOff = locked && exemptions.locked.contains(.categoryOff)
        lockSkipsTypeOff = type.locked && exemptions.locked.contains(.typeOff)
        lockSkipsChannelOff = locked && exemptions.locked.contains(.channelOff)
        criticalSkipsTrainingDays = type.critical && exemptions.critical.contains(.trainingDays)
        categoryDefaultOn = category?.defaultOn ?? true
        let kept = category?.keepChannels ?? []
        channelChoices = channels.map { ch in
            ChannelChoice(ch, categoryKey: "\(type.category).\(ch.name)",
                          categoryDefaultOn: bundle.categories[type.category]?.channels.first { $0.channel == ch.name }?.on ?? true,
                          kept: kept.contains(ch.name))
        }
        hasKeptChannels = channelChoices.contains { $0.kept }
        deliversAll = type.delivery == .all
        fallbackChoice = fallback.map { ChannelChoice($0, categoryKey: "", categoryDefaultOn: true) }
        let id = type.id
        // Each citation points at the key that decides (`eligible`, `defaults.pausedAll`, …),
        // else at the type's name.
        let keys = type.keySpans
        let keyRule = type.idempotencyKey != nil ? keys["idempotencyKey"] : type.dedupe?.key != nil ? keys["dedupe.key"] : nil
        // A toggle that is off by default is decided by its `default: false`.
        let categoryToggle = category.map { $0.defaultOn ? $0.span : $0.keySpans["default"] ?? $0.span }
        let typeToggle = type.defaultOn ? type.span : keys["default"] ?? type.span
        var citing = CitationTable.Builder()
        cite = Citations(
            missingData: citing.cite(id, at: type.span),
            eligible: citing.cite("\(id).eligible", at: keys["eligible"]),
            pausedAll: citing.cite("prefs.pausedAll", at: bundle.defaults.keySpans["pausedAll"] ?? type.span),
            categoryRequires: citing.cite("\(type.category).requires", at: category?.keySpans["requires"]),
            categoryToggle: citing.cite("prefs.categories.\(type.category)", at: categoryToggle),
            typeToggle: citing.cite("prefs.types.\(id)", at: typeToggle),
            channels: citing.cite("\(id).channels", at: keys["channels"] ?? type.span),
            fallback: citing.cite("\(id).fallback", at: keys["fallback"] ?? type.span),
            dedupe: citing.cite("\(id).dedupe", at: keys["dedupe"]),
            key: citing.cite("\(id).key", at: keyRule ?? type.span),
            quietHours: citing.cite(type.timing.quietHours != nil ? "\(id).timing.quietHours"
                                        : quietHoursByExemption ? "exemptions.critical" : "quietHours",
                                    at: quietHoursSource ?? type.span),
            expires: citing.cite("\(id).timing.expires", at: keys["timing.expires"] ?? type.span),
            past: citing.cite("\(id).timing.past", at: keys["timing.past"] ?? type.span),
            batching: citing.cite(batchGroup.map { "batching.\($0.name)" } ?? digestGroup.map { "digests.\($0.name)" } ?? "",
                                  at: batchGroup?.span ?? digestGroup?.span),
            provisional: citing.cite("provisional", at: bundle.provisionalSpan))
        var suppressCitations: [TableCitation] = []
        for rule in suppress { suppressCitations.append(citing.cite(rule.id, at: rule.span)) }
        self.suppressCitations = suppressCitations
        suppressWhen = suppress.map(\.when)
        // Each evaluator comes from an expression this table keeps (`suppressWhen`, `type`,
        // `category`).
        suppressEvals = suppressWhen.map { $0.map(UnownedExpression.init(keptAlongside:)) }
        eligibleEval = type.eligible.map(UnownedExpression.init(keptAlongside:))
        requiresEval = category?.requires.map(UnownedExpression.init(keptAlongside:))
        suppressReasons = suppress.map(\.reason)
        let copy = type.silent ? nil : type.copy
        func bind(_ template: MessageTemplate?) -> BoundTemplate? { template.map { BoundTemplate($0, names: type.templateNames) } }
        copyTitle = bind(copy?.title)
        copySubtitle = bind(copy?.subtitle)
        copyBody = bind(copy?.body)
        copyLockscreen = bind(copy?.lockscreen)
        threadIdTemplate = bind(type.threadId ?? category?.threadId)
        keyTemplate = bind(type.idempotencyKey ?? type.dedupe?.key)
        contentKeyParts = type.dedupe?.byContent == true
            ? [copy?.title, copy?.subtitle, copy?.body].map { bind($0) } : nil
        subjectTemplate = bind(type.subject)
        interruptionLevel = (type.silent ? .passive : (type.interruption ?? category?.interruption ?? .active)).rawValue
        presentation = PresentationPlan(type: type, category: category)
        var batchParams: [(name: String, slot: Int)] = []
        let firstParams = bundle.batching.values.filter { $0.firstHolders.contains(id) }.flatMap(\.firstParams)
            + bundle.digests.values.filter { $0.firstHolders.contains(id) }.flatMap(\.firstParams)
        for name in firstParams where !batchParams.contains(where: { $0.name == name }) {
            if let slot = type.params.firstIndex(where: { $0.name == name }) { batchParams.append((name, slot)) }
        }
        self.batchParams = batchParams
        rendersPresentation = (presentation?.isDynamic ?? false) || presentation?.soundWhen != nil || !bundle.badgeTabs.isEmpty
            || !batchParams.isEmpty
        provisionalPassive = bundle.provisionalPassive && channels.contains(where: \.permission)
        timingCitation = citing.cite("\(id).timing", at: keys["timing"] ?? type.span)
        var plans: [CapPlan] = []
        for cap in caps {
            let scopes: [LedgerScope]?
            switch cap.scope {
            case .channel, .subject: scopes = nil
            default: scopes = Self.fixedScopes(of: cap, type: type, bundle: bundle)
            }
            plans.append(CapPlan(cap: cap, fixedScopes: scopes, citation: citing.cite(cap.id, at: cap.span)))
        }
        capPlans = plans
        capPlanRefs = UnownedReferences(keptAlongside: plans)
        backoffs = bundle.backoff.filter { fits($0.match) }.map { entry in
            BackoffPlan(entry, scope: entry.by == .type ? .type(type.id) : .category(type.category),
                        citation: citing.cite(entry.id, at: entry.span))
        }
        citations = citing.finish()
        var members: [String] = []
        for m in batchGroup?.members ?? [] where !members.contains(m) { members.append(m) }
        batchMembers = members
        policy = Decision.Policy(name: bundle.name, digest: bundle.digest)
        batching = batchGroup.map(BatchPlan.init)
        digest = digestGroup
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
