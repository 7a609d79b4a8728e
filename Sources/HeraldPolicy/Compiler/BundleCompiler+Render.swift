import HeraldSyntax

extension Compilation {
    /// `sound`, `actions`, `osChannel`, `relevance` and, when `payload` is given the names its
    /// templates may use, `payload` (types only): keys that change only what a device shows
    /// (docs/seeds.md P14).
    mutating func compileRenderKeys(_ f: Fields, owner: String, payload allowed: [String: ValueType]?) -> RenderKeys {
        var keys = RenderKeys()
        if let node = f["sound"] {
            if node.mapping != nil {
                if let s = reader.fields(node, LanguageKeys.sound, owner: owner) {
                    keys.sound = s["file"].flatMap { reader.string($0, what: "`sound.file`") }
                    keys.soundWhen = s["when"].flatMap { soundCondition($0, owner: owner) }
                }
            } else {
                keys.sound = reader.string(node, what: "`sound`")
            }
        }
        keys.foreground = f["foreground"].flatMap { reader.enumValue($0, what: "`foreground`", as: ForegroundPresentation.self) }
        keys.osChannel = f["osChannel"].flatMap { reader.string($0, what: "`osChannel`") }
        if let node = f["relevance"], let scalar = reader.scalar(node, what: "`relevance`") {
            if let value = PlainValue(scalar).number, value >= 0, value <= 1 {
                keys.relevance = value
            } else {
                reader.diagnostics.error(.relevanceOutOfRange, "`relevance` of `\(owner)` is `\(scalar.value)`; write a number from 0 to 1, as in `0.8`",
                                         at: node.span)
            }
        }
        if let node = f["actions"], let items = reader.sequence(node, what: "`actions`") {
            var actions: [QuickAction] = []
            var seen: [String: SourceSpan] = [:]
            for item in items {
                guard let a = reader.fields(item, LanguageKeys.quickAction, owner: owner),
                      let idNode = a["id"], let id = reader.string(idNode, what: "an action's `id`"),
                      let title = a["title"].flatMap({ reader.string($0, what: "an action's `title`") }) else { continue }
                if let first = seen[id] {
                    reader.diagnostics.error(.actionIDTwice, "action `\(id)` is listed twice in the `actions` of `\(owner)`", at: idNode.span,
                                             notes: [.init("first listed here", span: first)])
                    continue
                }
                seen[id] = idNode.span
                actions.append(QuickAction(id: id, title: title, span: idNode.span))
            }
            if actions.count > 4 {
                reader.diagnostics.warning(.tooManyActions, "`\(owner)` lists \(actions.count) actions; iOS shows at most four", at: node.span)
            }
            keys.actions = actions
        }
        if let allowed, let node = f["payload"], let pairs = reader.mapping(node, what: "`payload`") {
            for pair in pairs {
                reader.checkFieldName(pair.key.value, at: pair.key.span, what: "payload key")
                if let value = template(pair.value, what: "`payload.\(pair.key.value)`", allowed: allowed) {
                    keys.payload.append(PayloadField(key: pair.key.value, value: value, span: pair.key.span))
                }
            }
        }
        return keys
    }

    /// `sound.when`: a `bool` expression that reads only `prefs.*` (H0287 otherwise), so that a
    /// sound follows the user's own toggle and nothing else.
    private mutating func soundCondition(_ node: YAMLNode, owner: String) -> SoundCondition? {
        guard let e = expression(node, what: "`sound.when`", expecting: .bool, params: [:]) else { return nil }
        let other = e.referencedPaths.filter { $0.first != "prefs" }
        if let first = other.first {
            reader.diagnostics.error(.soundWhenNotPreference,
                                     "`sound.when` of `\(owner)` reads `\(first.joined(separator: "."))`; a sound is switched only by `prefs.*`",
                                     at: e.span, notes: [.init("declare the toggle in the catalog's `prefs:` and test it, as in `prefs.sound`")])
            return nil
        }
        return SoundCondition(when: e)
    }

    /// `dedupe.by: content` makes the key from the rendered copy and link: a key of its own is
    /// `H0284`, a type without copy `H0285`.
    mutating func checkContentDedupe(_ byNode: YAMLNode, type: String, dedupeKey: YAMLNode?, idempotencyKey: YAMLNode?, hasCopy: Bool) {
        for node in [dedupeKey, idempotencyKey].compactMap({ $0 }) {
            reader.diagnostics.error(.contentDedupeWithKey,
                                     "type `\(type)` has `dedupe.by: content` and a key of its own; the rendered content is the key",
                                     at: node.span, notes: [.init("remove the key, or use `by: key`", span: byNode.span)])
        }
        if !hasCopy {
            reader.diagnostics.error(.contentDedupeWithoutCopy,
                                     "type `\(type)` has `dedupe.by: content` but no `copy`; there is no content to compare",
                                     at: byNode.span)
        }
    }

    /// Warns (H0282) when a type's own device keys cannot show: none of its channels is `push`
    /// or `local`.
    mutating func checkRenderChannels(_ f: Fields, type: String, channels: [String]) {
        let device: Set<ChannelKind> = [.push, .local]
        let kinds = channels.compactMap { channelKinds[$0] }
        guard kinds.count == channels.count, !kinds.contains(where: device.contains) else { return }
        for key in ["sound", "actions", "osChannel", "relevance", "foreground"] {
            guard let pair = f.pairs.first(where: { $0.key.value == key }) else { continue }
            reader.diagnostics.warning(.renderKeyWithoutDevice,
                                       "`\(key)` on `\(type)` shows nowhere: none of its channels is `push` or `local`",
                                       at: pair.key.span, notes: [.init("email, SMS and in-app messages have no OS sound, actions or channel")])
        }
    }

    /// The mapping form of `badge:`: `{ tabs: { <tab>: <int expression>, … }, total: <int
    /// expression> }` (docs/seeds.md P24). Returns the total (nil: the tabs' sum) and the tabs.
    mutating func compileBadgeTabs(_ node: YAMLNode) -> (total: CompiledExpression?, tabs: [BadgeTab]) {
        guard let f = reader.fields(node, LanguageKeys.badge) else { return (nil, []) }
        var tabs: [BadgeTab] = []
        if let tabsNode = f["tabs"], let pairs = reader.mapping(tabsNode, what: "`badge.tabs`") {
            if pairs.isEmpty { reader.diagnostics.error(.emptyList, "`badge.tabs` names no tab", at: tabsNode.span) }
            for pair in pairs {
                reader.checkFieldName(pair.key.value, at: pair.key.span, what: "badge tab")
                if let count = noDelivery(expression(pair.value, what: "`badge.tabs.\(pair.key.value)`", expecting: .int, params: [:]),
                                          what: "`badge.tabs.\(pair.key.value)`") {
                    tabs.append(BadgeTab(name: pair.key.value, count: count, span: pair.key.span))
                }
            }
        }
        let total = f["total"].flatMap { noDelivery(expression($0, what: "`badge.total`", expecting: .int, params: [:]), what: "`badge.total`") }
        return (total, tabs)
    }
}
