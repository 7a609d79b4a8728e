import HeraldSyntax

extension Compilation {
    /// Names a cap's `match` may use: types, categories and channels.
    var matchTargets: [String] { typeNames + categoryNames + channelNames }
    /// Names `only`, `exempt`, `bypass`, `priorities` and rule `match` may use.
    var typeOrCategoryTargets: [String] { typeNames + categoryNames }

    /// A list of type/category(/channel) names, each checked (`H0410` with "did you mean").
    /// Membership is a set lookup: a bundle of n types with a cap each stays O(n).
    mutating func targets(_ node: YAMLNode?, what: String, channels: Bool) -> [String] {
        guard let node, let names = reader.names(node, what: what) else { return [] }
        var result: [String] = []
        for (name, span) in names {
            if typeOrCategorySet.contains(name) || (channels && channelNames.contains(name)) {
                result.append(name)
            } else {
                let kinds = channels ? "type, category or channel" : "type or category"
                reader.diagnostics.error(.unknownTarget, "unknown \(kinds) `\(name)` in \(what)", at: span,
                                         suggestion: Suggestions.closest(to: name, in: channels ? matchTargets : typeOrCategoryTargets))
            }
        }
        return result
    }

    /// A cap from a type's `caps`, the policy's `caps`, or (with `LanguageKeys.cooldown`) `cooldowns`.
    mutating func compileCap(_ node: YAMLNode, owner: String?, defaultID: String, place: LanguageKeys.Place) -> Cap? {
        guard let f = reader.fields(node, place) else { return nil }
        var id = defaultID
        if let n = f["id"], let text = reader.string(n, what: "a cap's `id`") {
            reader.checkIdentifier(text, at: n.span, what: "cap")
            id = text
        }
        let scope = f["scope"].flatMap { reader.enumValue($0, what: "`scope`", as: CapScope.self) } ?? (owner == nil ? .global : .type)
        let match = targets(f["match"], what: "`match`", channels: true)
        let only = targets(f["only"], what: "`only`", channels: false)
        let exempt = targets(f["exempt"], what: "`exempt`", channels: false)
        let cooldown = f["cooldown"].flatMap { reader.duration($0, what: "`cooldown`") }
        let max = f["max"].flatMap { compileCapLimit($0, scope: scope) }
        let per = f["per"].flatMap { compileWindow($0) }
        var over = CapOverflow.suppress
        if let n = f["over"], let o = compileOverflow(n) { over = o }
        var counts = CountedStatus.defaults
        if let n = f["counts"], let names = reader.names(n, what: "`counts`") {
            counts = names.compactMap { name, span in
                if let status = CountedStatus(rawValue: name) { return status }
                let allowed = CountedStatus.allCases.map(\.rawValue)
                reader.diagnostics.error(.invalidEnumValue, "invalid status `\(name)` in `counts`; expected \(NodeReader.list(allowed))",
                                         at: span, suggestion: Suggestions.closest(to: name, in: allowed))
                return nil
            }
        }
        if !f.has("cooldown") {
            for key in ["max", "per"] where !f.has(key) {
                reader.diagnostics.error(.missingKey, "missing required key `\(key)` in cap `\(id)` (a cap needs `max` and `per`, or `cooldown`)", at: node.span)
            }
        } else if f.has("max") != f.has("per") {
            let missing = f.has("max") ? "per" : "max"
            reader.diagnostics.error(.missingKey, "missing required key `\(missing)` in cap `\(id)` (`max` and `per` go together)", at: node.span)
        }
        var cap = Cap(id: id, owner: owner, scope: scope, match: match, only: only, max: max, per: per, cooldown: cooldown,
                      over: over, exempt: exempt, counts: counts, span: f.entrySpan)
        // A cooldown written in whole days or weeks only (`3d`, `2w`) counts local calendar days.
        if let seconds = cooldown, let text = f["cooldown"]?.scalar?.value,
           text.range(of: #"^([0-9]+[dw])+$"#, options: .regularExpression) != nil
        {
            cap.cooldownDays = seconds / 86_400
        }
        return cap
    }

    /// An int, or an int expression over `prefs.*` and `user.*`; a `scope: subject` cap's may
    /// also read `state.*` and `subject` (a `string` there: the cap applies only with a subject),
    /// so a per-object setting sizes the cap of its object (`state.mastery.cadence[subject] ?? 2`).
    /// Outside `scope: subject`, a state read is `H0327` and a `subject` read `H0328`.
    mutating func compileCapLimit(_ node: YAMLNode, scope: CapScope) -> CapLimit? {
        guard let scalar = reader.scalar(node, what: "`max`") else { return nil }
        if let n = NodeReader.parseInt(scalar.value) {
            if n < 0 { reader.diagnostics.error(.invalidScalar, "`max` must not be negative, found `\(n)`", at: node.span) }
            return .fixed(n)
        }
        // A bare word (`lots`) is neither an int nor an expression over prefs or user.
        if scalar.value.allSatisfy({ $0.isLetter || $0 == "_" }) || scalar.value.isEmpty {
            reader.diagnostics.error(.invalidScalar, "expected an int or an int expression such as `prefs.maxPerDay` for `max`, found `\(scalar.value)`",
                                     at: node.span)
            return nil
        }
        // State is in scope everywhere so that a read outside `scope: subject` gets its own
        // diagnostic rather than "unknown name".
        var env = environment(params: [:])
        if scope == .subject { env.roots["subject"] = .value(.string) }
        guard let compiled = noDelivery(ExpressionCompiler.compile(scalar, span: node.span, expecting: .int, in: env,
                                                                   diagnostics: &reader.diagnostics), what: "`max`")
        else { return nil }
        guard scope != .subject else { return .expression(compiled) }
        var valid = true
        if let path = compiled.referencedPaths.first(where: { $0.first == "state" }) {
            reader.diagnostics.error(.capMaxReadsState,
                                     "`max` reads `\(path.joined(separator: "."))`, but the cap's scope is `\(scope.rawValue)`",
                                     at: compiled.span,
                                     notes: [.init("a cap's size reads `state` only by subject: a `scope: subject` cap, such as `max: \"state.plans.cadence[subject] ?? 2\"`; a size for every notification of the scope is a preference (`prefs.*`) or a user field (`user.*`)")])
            valid = false
        }
        if compiled.referencedPaths.contains(where: { $0 == ["subject"] }) {
            reader.diagnostics.error(.capMaxReadsSubject,
                                     "`max` reads `subject`, but the cap's scope is `\(scope.rawValue)`, which does not count by subject",
                                     at: compiled.span,
                                     notes: [.init("write `scope: subject` to size the cap of each subject by it")])
            valid = false
        }
        return valid ? .expression(compiled) : nil
    }

    /// `day` · `week` · `calendar_week` · `month` · `year` · `lifetime` · a duration.
    mutating func compileWindow(_ node: YAMLNode) -> CapWindow? {
        guard let scalar = reader.scalar(node, what: "`per`") else { return nil }
        switch scalar.value {
        case "day": return .day
        case "week": return .week
        case "previous_7_days": return .previousSevenDays
        case "calendar_week": return .calendarWeek
        case "month": return .month
        case "year": return .year
        case "lifetime": return .lifetime
        default: break
        }
        if scalar.value.first?.isNumber == true {
            guard let seconds = reader.duration(node, what: "`per`") else { return nil }
            if seconds <= 0 { reader.diagnostics.error(.invalidDuration, "`per` must be longer than zero", at: node.span) }
            return .duration(seconds)
        }
        _ = reader.word(node, what: "`per` (or write a duration such as `48h`)", allowed: LanguageKeys.capWindows)
        return nil
    }

    /// `suppress` · `defer` · `batch(<group>)` · `digest(<name>)`.
    mutating func compileOverflow(_ node: YAMLNode) -> CapOverflow? {
        guard let scalar = reader.scalar(node, what: "`over`") else { return nil }
        if scalar.value == "suppress" { return .suppress }
        if scalar.value == "defer" { return .defer }
        if let call = NodeReader.call(scalar.value), call.name == "batch" || call.name == "digest" {
            let span = scalar.span(ofValueRange: call.offset..<(call.offset + call.argument.utf8.count))
            if call.name == "batch" {
                return reference(call.argument, at: span, in: batchNames, code: .unknownBatchGroup, what: "batch group") ? .batch(call.argument) : nil
            }
            return reference(call.argument, at: span, in: digestNames, code: .unknownDigest, what: "digest") ? .digest(call.argument) : nil
        }
        let head = String(scalar.value.prefix { $0 != "(" })
        reader.diagnostics.error(.invalidEnumValue,
                                 "invalid value `\(scalar.value)` for `over`; expected `suppress`, `defer`, `batch(<group>)` or `digest(<name>)`",
                                 at: node.span, suggestion: Suggestions.closest(to: head, in: LanguageKeys.overflows))
        return nil
    }

    /// A suppression rule; `owner` nil for a policy rule (which may have `match`).
    mutating func compileRule(_ node: YAMLNode, owner: String?, defaultID: String, params: [String: ValueType]?) -> SuppressRule? {
        let place = owner == nil ? LanguageKeys.policySuppressRule : LanguageKeys.typeSuppressRule
        guard let f = reader.fields(node, place) else { return nil }
        var id = defaultID
        if let n = f["id"], let text = reader.string(n, what: "a rule's `id`") {
            reader.checkIdentifier(text, at: n.span, what: "rule")
            id = text
        }
        let match = targets(f["match"], what: "`match`", channels: false)
        let ruleParams = params ?? sharedParams(of: typesCovered(by: match))
        let when = f["when"].flatMap { expression($0, what: "`when`", expecting: .bool, params: ruleParams) }
        var reason: String?
        if let n = f["reason"], let code = reader.string(n, what: "`reason`") {
            let known = Reason.builtIn.map(\.code) + reasons.names
            if reference(code, at: n.span, in: known, code: .unknownReason, what: "reason") { reason = code }
        }
        guard let when, let reason else { return nil }
        return SuppressRule(id: id, owner: owner, when: when, reason: reason, match: match, span: f.entrySpan)
    }

    /// Cap ids and rule ids are unique across the bundle (`H0209`).
    mutating func checkDuplicateIDs(types: NamedTable<NotificationType>, policyCaps: [Cap], policyRules: [SuppressRule]) {
        var caps: [String: SourceSpan] = [:]
        for cap in types.values.flatMap(\.caps) + policyCaps {
            if let first = caps[cap.id] {
                reader.diagnostics.error(.duplicateID, "cap id `\(cap.id)` is used twice", at: cap.span, notes: [.init("first used here", span: first)])
            } else {
                caps[cap.id] = cap.span
            }
        }
        var rules: [String: SourceSpan] = [:]
        for rule in types.values.flatMap(\.suppress) + policyRules {
            if let first = rules[rule.id] {
                reader.diagnostics.error(.duplicateID, "suppression rule id `\(rule.id)` is used twice", at: rule.span, notes: [.init("first used here", span: first)])
            } else {
                rules[rule.id] = rule.span
            }
        }
    }
}
