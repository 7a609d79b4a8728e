import HeraldSyntax

extension Compilation {
    /// A type's `computed: { name: "<expression>" }` (docs/templates.md § Computed values): each
    /// expression is checked like a condition of the type (state, user, params, prefs, trigger,
    /// `sent`), its type is the value's. A name taken by a param or a template built-in is
    /// `H0271`; a list, or a value that may be absent, is `H0272` (a template shows one value,
    /// always present); a read of `delivery.*` is `H0274`. `rejected`: the names whose value
    /// did not compile, which the type's templates may still name without a second error.
    mutating func compileComputed(_ node: YAMLNode, type: String, params: [String: ValueType],
                                  rejected: inout [String]) -> [ComputedValue] {
        guard let pairs = reader.mapping(node, what: "`computed`") else { return [] }
        var values: [ComputedValue] = []
        for pair in pairs {
            let name = pair.key.value
            reader.checkFieldName(name, at: pair.key.span, what: "computed value")
            if params[name] != nil || ["type", "subject", "localDate"].contains(name) {
                let what = params[name] != nil ? "a param of `\(type)`" : "a template built-in"
                reader.diagnostics.error(.computedNameTaken, "computed value `\(name)` has the name of \(what); choose another name",
                                         at: pair.key.span)
                continue
            }
            rejected.append(name)
            guard let scalar = reader.scalar(pair.value, what: "a computed value") else { continue }
            guard let expression = ExpressionCompiler.compile(scalar, span: pair.value.span, expecting: nil,
                                                              in: environment(params: params), diagnostics: &reader.diagnostics) else { continue }
            if expression.referencedPaths.contains(where: { $0.first == "delivery" }) {
                reader.diagnostics.error(.computedReadsDelivery,
                                         "computed value `\(name)` reads `delivery`, which is not known yet when computed values are evaluated",
                                         at: pair.value.span,
                                         notes: [.init("computed values are evaluated as the request is read; use `trigger.at`, `now` or `local.*`")])
                continue
            }
            switch expression.type {
            case .list, .map:
                reader.diagnostics.error(.computedValueType,
                                         "computed value `\(name)` is \(expression.type), but a template shows one value; compute a count with `size()` or a test with `in`",
                                         at: pair.value.span)
                continue
            case .optional(let inner):
                reader.diagnostics.error(.computedValueType,
                                         "computed value `\(name)` is \(expression.type) and may be absent; give it a default with `?? <\(inner)>`",
                                         at: pair.value.span)
                continue
            default: break
            }
            rejected.removeLast()
            values.append(ComputedValue(name: name, expression: expression, span: pair.key.span))
        }
        return values
    }

    /// Warns (`H0273`) about each computed value of `type` that none of its templates uses.
    mutating func checkComputedUsed(_ type: NotificationType) {
        guard !type.computed.isEmpty else { return }
        var templates: [MessageTemplate?] = [type.idempotencyKey, type.dedupe?.key, type.subject, type.threadId]
        templates += type.copy?.fields.map(\.template) ?? []
        templates += type.link?.bindings.map(\.value) ?? []
        templates += type.render.payload.map(\.value)
        let used = Set(templates.flatMap { $0?.placeholders ?? [] })
        for value in type.computed where !used.contains(value.name) {
            reader.diagnostics.warning(.computedUnused,
                                       "computed value `\(value.name)` of `\(type.id)` is used by none of its templates",
                                       at: value.span, notes: [.init("show it in copy, a link, a key or a payload as `{\(value.name)}`, or remove it")])
        }
    }
}
