import HeraldSyntax

extension Compilation {
    /// `exemptions: { locked: [...], critical: [...] }`. A key left out keeps its default
    /// (`Exemptions.defaultLocked`, `.defaultCritical`); an empty list exempts from nothing.
    /// Unknown words are `H0205`, a word listed twice `H0244`.
    mutating func compileExemptions(_ single: BundleSections.Single) -> Exemptions {
        var exemptions = Exemptions(span: single.key.span)
        guard let f = reader.fields(single.value, LanguageKeys.exemptions) else { return exemptions }
        if let node = f["locked"] {
            exemptions.locked = Set(words(node, what: "exemptions.locked", as: LockedExemption.self))
        }
        if let node = f["critical"] {
            exemptions.criticalSpan = f.keySpans()["critical"]
            exemptions.critical = Set(words(node, what: "exemptions.critical", as: CriticalExemption.self))
        }
        return exemptions
    }

    private mutating func words<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, what: String, as: E.Type) -> [E]
    where E.RawValue == String {
        guard let items = reader.sequence(node, what: "`\(what)`") else { return [] }
        var result: [E] = []
        var seen: Set<String> = []
        for item in items {
            guard let word = reader.word(item, what: "an entry of `\(what)`", allowed: E.allCases.map(\.rawValue)),
                  let value = E(rawValue: word) else { continue }
            if !seen.insert(word).inserted {
                reader.diagnostics.error(.exemptionListedTwice, "`\(word)` is listed twice in `\(what)`", at: item.span)
                continue
            }
            result.append(value)
        }
        return result
    }

    /// An `exemptions:` section whose hatch no type uses says nothing: `H0243`, a warning.
    mutating func checkExemptions(_ exemptions: Exemptions, categories: NamedTable<Category>, types: NamedTable<NotificationType>) {
        guard let span = exemptions.span, let node = sections.singles["exemptions"]?.value, let pairs = node.mapping else { return }
        let anyLocked = types.contains { $0.locked } || categories.contains { $0.locked }
        let anyCritical = types.contains { $0.critical }
        for pair in pairs {
            if pair.key.value == "locked", !anyLocked {
                reader.diagnostics.warning(.exemptionsUnused, "`exemptions.locked` says what a locked type skips, but no type or category is locked",
                                           at: pair.key.span, notes: [.init("the section starts here", span: span)])
            }
            if pair.key.value == "critical", !anyCritical {
                reader.diagnostics.warning(.exemptionsUnused, "`exemptions.critical` says what a critical type skips, but no type is `critical: true`",
                                           at: pair.key.span, notes: [.init("the section starts here", span: span)])
            }
        }
    }
}
