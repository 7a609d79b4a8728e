import HeraldSyntax

extension Compilation {
    /// `prompt:` — `{ wait: [ { id, when, reason } ], description }`. Rule expressions are bool
    /// expressions in the standard environment without params (a prompt has no trigger type);
    /// reasons are the built-in wait reasons or the catalog's.
    mutating func compilePrompt() -> PromptPolicy {
        guard let single = sections.singles["prompt"] else { return PromptPolicy() }
        var prompt = PromptPolicy(span: single.key.span)
        guard let f = reader.fields(single.value, LanguageKeys.prompt) else { return prompt }
        prompt.description = f["description"].flatMap { reader.string($0, what: "`prompt.description`") }
        guard let node = f["wait"], let items = reader.sequence(node, what: "`prompt.wait`") else { return prompt }
        for (index, item) in items.enumerated() {
            if let rule = compilePromptRule(item, defaultID: "prompt.wait[\(index)]") { prompt.wait.append(rule) }
        }
        return prompt
    }

    mutating func compilePromptRule(_ node: YAMLNode, defaultID: String) -> PromptRule? {
        guard let f = reader.fields(node, LanguageKeys.promptRule) else { return nil }
        var id = defaultID
        if let n = f["id"], let text = reader.string(n, what: "a prompt rule's `id`") {
            reader.checkIdentifier(text, at: n.span, what: "rule")
            id = text
        }
        let when = f["when"].flatMap { noDelivery(expression($0, what: "`when`", expecting: .bool, params: [:]), what: "a prompt rule's `when`") }
        var reason: String?
        if let n = f["reason"], let code = reader.string(n, what: "`reason`") {
            let known = PromptPolicy.builtInWaitReasons + reasons.names
            if code == PromptPolicy.askReason {
                reader.diagnostics.error(.unknownReason, "`\(code)` is the reason of `ask`, not of a wait rule", at: n.span,
                                         notes: [.init("declare a reason in the catalog's `reasons` and use it here")])
            } else if reference(code, at: n.span, in: known, code: .unknownReason, what: "prompt reason") {
                reason = code
            }
        }
        guard let when, let reason else { return nil }
        return PromptRule(id: id, when: when, reason: reason, span: f.entrySpan)
    }

    /// Prompt rule ids are unique among themselves and the suppression rules (`H0209`): tests,
    /// coverage and traces name rules by id alone.
    mutating func checkPromptIDs(_ prompt: PromptPolicy, types: NamedTable<NotificationType>, policyRules: [SuppressRule]) {
        var rules: [String: SourceSpan] = [:]
        for rule in types.values.flatMap(\.suppress) + policyRules where rules[rule.id] == nil { rules[rule.id] = rule.span }
        for rule in prompt.wait {
            if let first = rules[rule.id] {
                reader.diagnostics.error(.duplicateID, "rule id `\(rule.id)` is used twice", at: rule.span,
                                         notes: [.init("first used here", span: first)])
            } else {
                rules[rule.id] = rule.span
            }
        }
    }
}
