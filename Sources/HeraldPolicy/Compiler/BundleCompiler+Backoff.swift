import HeraldSyntax

extension Compilation {
    /// One entry of `backoff:` (docs/language.md § `backoff`).
    mutating func compileBackoff(_ node: YAMLNode, defaultID: String) -> Backoff? {
        guard let f = reader.fields(node, LanguageKeys.backoff) else { return nil }
        var id = defaultID
        if let n = f["id"], let text = reader.string(n, what: "a back-off's `id`") {
            reader.checkIdentifier(text, at: n.span, what: "back-off")
            id = text
        }
        let match = targets(f["match"], what: "`match`", channels: false)
        let by = f["by"].map { reader.enumValue($0, what: "a back-off's `by`", as: Backoff.Scope.self) } ?? .category
        // `when: { dismissed | ignored: n, within: d, opened: m }`.
        var condition: (counted: Backoff.Counted, count: Int, within: Int, opened: Int)?
        if let n = f["when"], let w = reader.fields(n, LanguageKeys.backoffWhen) {
            let named = [Backoff.Counted.dismissed, .ignored].filter { w.has($0.rawValue) }
            let within = w["within"].flatMap { reader.duration($0, what: "a back-off's `within`") }
            let opened = w["opened"].map { reader.int($0, what: "a back-off's `opened`") } ?? 0
            if named.count != 1 {
                reader.diagnostics.error(.invalidBackoffCondition,
                                         "back-off `\(id)` must count exactly one of `dismissed` or `ignored` in `when`", at: n.span)
            } else if let counted = named.first, let countNode = w[counted.rawValue],
                      let count = reader.int(countNode, what: "a back-off's `\(counted.rawValue)`")
            {
                if count < 1 {
                    reader.diagnostics.error(.invalidBackoffCondition,
                                             "back-off `\(id)` counts `\(counted.rawValue): \(count)`; the count must be at least 1", at: countNode.span)
                } else if let opened, opened < 0 {
                    reader.diagnostics.error(.invalidBackoffCondition,
                                             "back-off `\(id)` allows `opened: \(opened)`; it must not be negative", at: w["opened"]!.span)
                } else if let within, within > 0, let opened {
                    condition = (counted, count, within, opened)
                } else if let within, within <= 0 {
                    reader.diagnostics.error(.invalidDuration, "a back-off's `within` must be longer than zero", at: w["within"]!.span)
                }
            }
        }
        let duration = f["for"].flatMap { reader.duration($0, what: "a back-off's `for`") }
        if let duration, duration <= 0, let n = f["for"] {
            reader.diagnostics.error(.invalidDuration, "a back-off's `for` must be longer than zero", at: n.span)
        }
        var effect: Backoff.Effect?
        if let n = f["then"] {
            if n.mapping != nil {
                if let c = reader.fields(n, LanguageKeys.backoffCap), let maxNode = c["max"], let perNode = c["per"],
                   let max = reader.int(maxNode, what: "a back-off's `max`"), let per = compileWindow(perNode)
                {
                    if max < 0 {
                        reader.diagnostics.error(.invalidBackoffEffect, "back-off `\(id)` caps at `max: \(max)`; it must not be negative", at: maxNode.span)
                    } else {
                        effect = .cap(max: max, per: per)
                    }
                }
            } else if let scalar = n.scalar, scalar.value == "suppress" {
                effect = .suppress
            } else {
                reader.diagnostics.error(.invalidBackoffEffect,
                                         "back-off `\(id)` has an invalid `then`; expected `suppress` or `{ max: <int>, per: <window> }`", at: n.span)
            }
        }
        var reason: String?
        if let n = f["reason"], let code = reader.string(n, what: "`reason`") {
            let known = Reason.builtIn.map(\.code) + reasons.names
            if reference(code, at: n.span, in: known, code: .unknownReason, what: "reason") { reason = code }
        }
        guard let condition, let duration, duration > 0, let effect, let reason else { return nil }
        return Backoff(id: id, match: match, by: by ?? .category, counted: condition.counted, count: condition.count,
                       within: condition.within, opened: condition.opened, duration: duration, effect: effect,
                       reason: reason, span: f.entrySpan)
    }
}
