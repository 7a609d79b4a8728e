import HeraldSyntax

/// The catalog's declared preferences (`prefs:`, docs/seeds.md P13) and the policy's plan
/// limits (`plan:`, P19). docs/language.md § `prefs`, § `plan`.
extension Compilation {
    /// Built-in `prefs.*` names a catalog may not declare (`maxPerDay` it may, to list `allowed`).
    static let builtinPreferences = ["timezone", "pausedAll", "reminderTime", "quietHours", "trainingDays", "muted",
                                     "categories", "channels", "types"]

    /// Compiles `prefs:`. `maxPerDay` may be declared with `allowed` (and `description`) only;
    /// every other entry is an app preference with a `type` (bool, int, string or an enum) and
    /// a `default`, and optionally `allowed` values.
    mutating func compilePreferences() -> NamedTable<DeclaredPreference> {
        var table = NamedTable<DeclaredPreference>()
        for pair in sections.named["prefs", default: []] {
            let name = pair.key.value
            reader.checkFieldName(name, at: pair.key.span, what: "preference")
            if Self.builtinPreferences.contains(name) {
                reader.diagnostics.error(.prefBuiltinName, "`prefs.\(name)` is a built-in preference and cannot be declared",
                                         at: pair.key.span, notes: [.init("only `maxPerDay` may be declared in `prefs`, to list its `allowed` values; give an app preference another name")])
                continue
            }
            guard let f = reader.fields(pair.value, LanguageKeys.preference, owner: "prefs.\(name)", ownerSpan: pair.key.span) else { continue }
            let description = f["description"].flatMap { reader.string($0, what: "`description`") }
            if name == "maxPerDay" {
                for key in ["type", "default"] {
                    guard let n = f[key] else { continue }
                    reader.diagnostics.error(.prefBuiltinTypeOrDefault, "`prefs.maxPerDay` is built in: it is an int and takes its default from `defaults.maxPerDay`; remove `\(key)`",
                                             at: n.span)
                }
                let allowed = f["allowed"].flatMap { allowedValues($0, of: .int, name: name) }
                table.insert(DeclaredPreference(name: name, type: .int, defaultValue: nil, allowed: allowed, description: description, span: pair.key.span), named: name)
                continue
            }
            var missing = false
            for key in ["type", "default"] where f[key] == nil {
                reader.diagnostics.error(.missingKey, "missing required key `\(key)` in preference `prefs.\(name)`", at: pair.key.span)
                missing = true
            }
            guard !missing, let typeNode = f["type"], let defaultNode = f["default"],
                  let typeText = reader.string(typeNode, what: "`type`"), let type = schemaType(typeText, at: typeNode.span) else { continue }
            switch type {
            case .bool, .int, .string, .enumeration: break
            default:
                reader.diagnostics.error(.prefUnsupportedType, "preference `prefs.\(name)` has type `\(type)`; a preference is a bool, int, string or enum(…)",
                                         at: typeNode.span)
                continue
            }
            guard let value = preferenceValue(defaultNode, of: type, what: "the default of `prefs.\(name)`") else { continue }
            var allowed: [Value]?
            if let n = f["allowed"] {
                if type == .bool {
                    reader.diagnostics.error(.prefAllowedInvalid, "`allowed` on bool preference `prefs.\(name)`: both values are always allowed", at: n.span)
                } else {
                    allowed = allowedValues(n, of: type, name: name)
                    if let allowed, !allowed.contains(value) {
                        reader.diagnostics.error(.prefDefaultNotAllowed, "the default \(Self.show(value)) of `prefs.\(name)` is not one of its allowed values \(Self.show(allowed))",
                                                 at: defaultNode.span)
                    }
                }
            }
            table.insert(DeclaredPreference(name: name, type: type, defaultValue: value, allowed: allowed, description: description, span: pair.key.span), named: name)
        }
        return table
    }

    /// Reports (H0254) a `defaults.maxPerDay` that `prefs.maxPerDay.allowed` does not list.
    mutating func checkMaxPerDayDefault(_ prefs: NamedTable<DeclaredPreference>, defaults: Defaults) {
        guard let allowed = prefs["maxPerDay"]?.allowed, let value = defaults.maxPerDay, !allowed.contains(.int(value)) else { return }
        reader.diagnostics.error(.prefDefaultNotAllowed, "`defaults.maxPerDay` is \(value), which is not one of the allowed values \(Self.show(allowed)) of `prefs.maxPerDay`",
                                 at: defaults.keySpans["maxPerDay"] ?? defaults.span)
    }

    /// `allowed: [2, 3, 4]`: a non-empty list of values of `type`, without repeats.
    private mutating func allowedValues(_ node: YAMLNode, of type: ValueType, name: String) -> [Value]? {
        guard let items = reader.sequence(node, what: "`allowed`") else { return nil }
        if items.isEmpty {
            reader.diagnostics.error(.prefAllowedInvalid, "`allowed` of `prefs.\(name)` is empty; list the values a user may choose", at: node.span)
            return nil
        }
        var values: [Value] = []
        var failed = false
        for item in items {
            guard let value = preferenceValue(item, of: type, what: "an allowed value of `prefs.\(name)`") else {
                failed = true
                continue
            }
            if values.contains(value) {
                reader.diagnostics.error(.prefAllowedInvalid, "\(Self.show(value)) is listed twice in `allowed` of `prefs.\(name)`", at: item.span)
                failed = true
            }
            values.append(value)
        }
        return failed ? nil : values
    }

    /// A preference value written in YAML: `true`/`false` for bool, a plain integer for int,
    /// any scalar for string, one of the cases for an enum (`H0253` otherwise).
    private mutating func preferenceValue(_ node: YAMLNode, of type: ValueType, what: String) -> Value? {
        guard let s = reader.scalar(node, what: what) else { return nil }
        switch type {
        case .bool where s.style == .plain && (s.value == "true" || s.value == "false"): return .bool(s.value == "true")
        case .int where s.style == .plain: if let n = NodeReader.parseInt(s.value) { return .int(n) }
        case .string: return .string(s.value)
        case .enumeration(let e) where e.cases.contains(s.value): return .string(s.value)
        default: break
        }
        let expected: String
        switch type {
        case .enumeration(let e): expected = "one of " + e.cases.map { "`\($0)`" }.joined(separator: ", ")
        case .bool: expected = "`true` or `false`"
        default: expected = "\(type == .int ? "an" : "a") \(type)"
        }
        reader.diagnostics.error(.prefValueType, "\(what) is `\(s.value)`; expected \(expected)", at: node.span,
                                 suggestion: { if case .enumeration(let e) = type { return Suggestions.closest(to: s.value, in: e.cases) }; return nil }())
        return nil
    }

    /// `plan: { horizon: 7d, maxPending: 64 }`.
    mutating func compilePlanLimits() -> PlanLimits {
        guard let single = sections.singles["plan"] else { return PlanLimits() }
        var limits = PlanLimits(span: single.key.span)
        guard let f = reader.fields(single.value, LanguageKeys.plan) else { return limits }
        if let n = f["horizon"], let seconds = reader.duration(n, what: "`plan.horizon`") {
            if seconds <= 0 || seconds > 366 * 86_400 {
                reader.diagnostics.error(.planHorizonInvalid, "`plan.horizon` must be a positive duration of at most 366 days, found `\(n.scalar?.value ?? "")`", at: n.span)
            } else {
                limits.horizon = seconds
            }
        }
        if let n = f["maxPending"], let s = reader.scalar(n, what: "`plan.maxPending`") {
            if s.style == .plain, let count = NodeReader.parseInt(s.value), count >= 1 {
                limits.maxPending = count
            } else {
                reader.diagnostics.error(.planMaxPendingInvalid, "`plan.maxPending` must be an integer of at least 1, found `\(s.value)`", at: n.span)
            }
        }
        return limits
    }

    static func plain(_ value: Value) -> String {
        switch value {
        case .bool(let b): "\(b)"
        case .int(let n): "\(n)"
        case .string(let s): s
        default: "\(value)"
        }
    }

    static func show(_ value: Value) -> String { "`" + plain(value) + "`" }

    static func show(_ values: [Value]) -> String {
        "`[" + values.map(plain).joined(separator: ", ") + "]`"
    }
}
