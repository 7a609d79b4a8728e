public import HeraldSyntax

/// Compiles merged bundle sections into a typed, immutable `PolicyBundle`, collecting every
/// diagnostic (never throwing, never stopping at the first problem).
public enum BundleCompiler {
    /// - Parameters:
    ///   - sections: every file's sections, merged by the loader.
    ///   - name: the bundle's name when it declares no `name:` (the directory's name).
    ///   - digest: the digest of the source files.
    ///   - files: the source files' diagnostic paths.
    /// - Returns: the bundle, or nil when there were errors (they are in `diagnostics`).
    public static func compile(_ sections: BundleSections, name: String, digest: String, files: [String],
                               diagnostics: inout Diagnostics) -> PolicyBundle? {
        var compilation = Compilation(sections: sections)
        let bundle = compilation.run(name: name, digest: digest, files: files)
        diagnostics.append(contentsOf: compilation.reader.diagnostics)
        return compilation.reader.diagnostics.hasErrors ? nil : bundle
    }
}

/// One compilation's working state: the reader (and its diagnostics) and the names known so far.
struct Compilation {
    var reader = NodeReader()
    let sections: BundleSections

    var scheme: String?
    var channelNames: [String] = []
    /// Each channel's kind, for checks of the keys only some kinds show (H0282).
    var channelKinds: [String: ChannelKind] = [:]
    var categoryNames: [String] = []
    var typeNames: [String] = []
    var routes = NamedTable<Route>()
    var reasons = NamedTable<Reason>()
    var stateSchema: [String: SchemaNode] = [:]
    var userSchema: [String: SchemaNode] = [:]
    var schemaFields: [SchemaField] = []
    var paramsByType: [String: [Param]] = [:]
    var categoryOfType: [String: String] = [:]
    var batchNames: [String] = []
    var digestNames: [String] = []
    /// Placeholders the template being compiled refuses with their own diagnostic (a group's
    /// `{first.<param>}`, H0297/H0298); empty outside group copy.
    var templateRefusals: [String: (code: DiagnosticCode, message: String)] = [:]
    /// The standard environment without params, built once the schemas are known: every
    /// expression's environment is this one with its own `params` (building it per expression
    /// made compiling O(types²): `prefs.types.*` and `sent()` targets name every type).
    var baseEnvironment: ExpressionEnvironment?
    /// Every type and category name, for O(1) checks of `match`, `only`, `exempt`, `bypass`.
    var typeOrCategorySet: Set<String> = []

    init(sections: BundleSections) {
        self.sections = sections
        channelNames = sections.named["channels", default: []].map(\.key.value)
        categoryNames = sections.named["categories", default: []].map(\.key.value)
        typeNames = sections.named["types", default: []].map(\.key.value)
        batchNames = sections.named["batching", default: []].map(\.key.value)
        digestNames = sections.named["digests", default: []].map(\.key.value)
        typeOrCategorySet = Set(typeNames + categoryNames)
    }

    mutating func run(name defaultName: String, digest: String, files: [String]) -> PolicyBundle {
        let app = compileApp()
        let channels = compileChannels()
        for name in channelNames { if let channel = channels[name] { channelKinds[name] = channel.kind } }
        (stateSchema, userSchema) = (compileSchema("state"), compileSchema("user"))
        let prefs = compilePreferences()
        baseEnvironment = .standard(state: stateSchema, user: userSchema, params: [:],
                                    categories: categoryNames, channels: channelNames, types: typeNames)
        baseEnvironment?.declare(prefs)
        // State and user reads compile to their index in `schemaFields` (the engine's slots).
        var slots: [[String]: Int] = [:]
        for (index, field) in schemaFields.enumerated() { slots[field.path] = index }
        for builtin in BuiltinRead.allCases { slots[builtin.path] = builtin.rawValue }
        baseEnvironment?.slots = slots
        reasons = compileReasons()
        routes = compileRoutes()
        compileAllParams()
        let categories = compileCategories()
        var badge: CompiledExpression?
        var badgeTabs: [BadgeTab] = []
        if let node = sections.singles["badge"]?.value {
            if node.mapping != nil {
                (badge, badgeTabs) = compileBadgeTabs(node)
            } else {
                badge = noDelivery(expression(node, what: "`badge`", expecting: .int, params: [:]), what: "`badge`")
            }
        }
        var types = NamedTable<NotificationType>()
        let typePairs = sections.named["types", default: []]
        for (pair, type) in zip(typePairs, compileTypes(typePairs)) {
            if let type { types.insert(type, named: pair.key.value) }
        }
        checkKeptChannels(categories: categories, types: types)
        let policy = compilePolicy(types: types)
        checkMaxPerDayDefault(prefs, defaults: policy.defaults)
        checkDuplicateIDs(types: types, policyCaps: policy.caps, policyRules: policy.suppress)
        let prompt = compilePrompt()
        checkPromptIDs(prompt, types: types, policyRules: policy.suppress)

        let name = sections.singles["name"].flatMap { reader.string($0.value, what: "`name`") } ?? defaultName
        let description = sections.singles["description"].flatMap { reader.string($0.value, what: "`description`") }
        if let catalog = sections.singles["catalog"] { _ = reader.scalar(catalog.value, what: "`catalog`") }
        if sections.sectionKeys["app"] == nil, let typesKey = sections.sectionKeys["types"] {
            reader.diagnostics.error(.missingKey, "missing required section `app` in a bundle that declares types", at: typesKey.span)
        }
        checkExemptions(policy.exemptions, categories: categories, types: types)
        var bundle = PolicyBundle(
            name: name, description: description, digest: digest, files: files, app: app, channels: channels,
            categories: categories, state: stateSchema, user: userSchema, schemaFields: schemaFields, reasons: reasons,
            routes: routes, badge: badge, types: types, defaults: policy.defaults, quietHours: policy.quietHours,
            caps: policy.caps, suppress: policy.suppress, dedupe: policy.dedupe, batching: policy.batching,
            digests: policy.digests, priorities: policy.priorities, dst: policy.dst, content: policy.content,
            prompt: prompt)
        bundle.backoff = policy.backoff
        bundle.badgeTabs = badgeTabs
        bundle.exemptions = policy.exemptions
        bundle.prefs = prefs
        bundle.plan = compilePlanLimits()
        if let single = sections.singles["provisional"],
           let word = reader.word(single.value, what: "`provisional`", allowed: ["passive", "granted"]) {
            bundle.provisionalPassive = word == "passive"
            bundle.provisionalSpan = single.key.span
        }
        return bundle
    }

    // MARK: Shared helpers

    func environment(params: [String: ValueType]) -> ExpressionEnvironment {
        guard var environment = baseEnvironment else {
            return .standard(state: stateSchema, user: userSchema, params: params,
                             categories: categoryNames, channels: channelNames, types: typeNames)
        }
        environment.roots["params"] = .object(params.mapValues { SchemaNode.value($0) })
        return environment
    }

    mutating func expression(_ node: YAMLNode, what: String, expecting: ValueType, params: [String: ValueType]) -> CompiledExpression? {
        guard let scalar = reader.scalar(node, what: what) else { return nil }
        let env = environment(params: params)
        return ExpressionCompiler.compile(scalar, span: node.span, expecting: expecting, in: env, diagnostics: &reader.diagnostics)
    }

    /// Reports (H0320) a read of `delivery.*` in an expression that decides no delivery
    /// (prompt rules, `badge`, a cap's `max`): there is no delivery instant to read there.
    mutating func noDelivery(_ expression: CompiledExpression?, what: String) -> CompiledExpression? {
        guard let expression, expression.referencedPaths.contains(where: { $0.first == "delivery" }) else { return expression }
        reader.diagnostics.error(.exprDeliveryWithoutDelivery, "\(what) reads `delivery`, but decides no delivery",
                                 at: expression.span, notes: [.init("`delivery.*` is the instant a notification is delivered; use `now` or `local.*`")])
        return nil
    }

    mutating func template(_ node: YAMLNode, what: String, allowed: [String: ValueType]) -> MessageTemplate? {
        guard let scalar = reader.scalar(node, what: what) else { return nil }
        return MessageTemplate.compile(scalar, span: node.span, allowed: allowed, refused: templateRefusals,
                                       diagnostics: &reader.diagnostics)
    }

    /// Reports `name` unless it is in `known`, with "did you mean" over `known`.
    @discardableResult
    mutating func reference(_ name: String, at span: SourceSpan, in known: [String], code: DiagnosticCode, what: String) -> Bool {
        if known.contains(name) { return true }
        reader.diagnostics.error(code, "unknown \(what) `\(name)`", at: span, suggestion: Suggestions.closest(to: name, in: known))
        return false
    }

    /// The params of every type, as templates and expressions see them.
    func paramTypes(of type: String) -> [String: ValueType] {
        Dictionary((paramsByType[type] ?? []).map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
    }

    /// The types a list of type/category names covers (all types when empty).
    func typesCovered(by names: [String]) -> [String] {
        guard !names.isEmpty else { return typeNames }
        return typeNames.filter { names.contains($0) || names.contains(categoryOfType[$0] ?? "") }
    }

    /// The params shared by `types`: a param every one of them declares with the same type keeps
    /// it; any other becomes optional (so expressions must check `has()`).
    func sharedParams(of types: [String]) -> [String: ValueType] {
        var result: [String: ValueType] = [:]
        var seen: [String: Int] = [:]
        for type in types {
            for param in paramsByType[type] ?? [] {
                seen[param.name, default: 0] += 1
                if let existing = result[param.name] {
                    if existing.unwrapped != param.type.unwrapped { result[param.name] = .optional(existing.unwrapped) }
                } else {
                    result[param.name] = param.type
                }
            }
        }
        for (name, count) in seen where count < types.count {
            if let t = result[name], !t.isOptional { result[name] = .optional(t) }
        }
        return result
    }
}
