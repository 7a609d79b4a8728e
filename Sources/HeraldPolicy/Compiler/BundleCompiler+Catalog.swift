import HeraldSyntax

extension Compilation {
    mutating func compileApp() -> App? {
        guard let single = sections.singles["app"] else { return nil }
        guard let f = reader.fields(single.value, LanguageKeys.app, ownerSpan: single.key.span) else { return nil }
        let name = f["name"].flatMap { reader.string($0, what: "`app.name`") }
        let scheme = f["scheme"].flatMap { node -> String? in
            guard let text = reader.string(node, what: "`app.scheme`") else { return nil }
            let valid = text.first?.isLetter == true && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            }
            if !valid {
                reader.diagnostics.error(.invalidScalar, "invalid scheme `\(text)`; write the scheme alone, as in `myapp`, without `://`", at: node.span)
                return nil
            }
            return text
        }
        self.scheme = scheme
        guard let name, let scheme else { return nil }
        return App(name: name, scheme: scheme, span: single.key.span)
    }

    mutating func compileChannels() -> NamedTable<Channel> {
        var table = NamedTable<Channel>()
        for pair in sections.named["channels", default: []] {
            let name = pair.key.value
            reader.checkIdentifier(name, at: pair.key.span, what: "channel")
            guard let f = reader.fields(pair.value, LanguageKeys.channel, owner: name, ownerSpan: pair.key.span) else { continue }
            guard let kind = f["kind"].flatMap({ reader.enumValue($0, what: "a channel's `kind`", as: ChannelKind.self) }) else { continue }
            let permission = f["permission"].flatMap { reader.bool($0, what: "`permission`") } ?? (kind == .local || kind == .push)
            let toggle = f["toggle"].flatMap { reader.bool($0, what: "`toggle`") } ?? false
            let defaultOn = f["default"].flatMap { reader.bool($0, what: "`default`") } ?? true
            table.insert(Channel(name: name, kind: kind, permission: permission, toggle: toggle, defaultOn: defaultOn, span: pair.key.span), named: name)
        }
        return table
    }

    // MARK: Schemas

    mutating func compileSchema(_ section: String) -> [String: SchemaNode] {
        schemaObject(sections.named[section, default: []], path: [section])
    }

    private mutating func schemaObject(_ pairs: [YAMLPair], path: [String]) -> [String: SchemaNode] {
        var object: [String: SchemaNode] = [:]
        for pair in pairs {
            let name = pair.key.value
            reader.checkFieldName(name, at: pair.key.span, what: "\(path[0]) field")
            let fieldPath = path + [name]
            let value = pair.value
            if let scalar = value.scalar {
                if let type = schemaType(scalar.value, at: value.span, allowMap: true) {
                    object[name] = .value(type)
                    schemaFields.append(SchemaField(path: fieldPath, type: type, description: nil, span: pair.key.span))
                }
            } else if let mapping = value.mapping {
                if let typeNode = value["type"], typeNode.scalar != nil {
                    // The long form `{ type: int, description: "…" }`.
                    guard let f = reader.fields(value, LanguageKeys.schemaField, owner: fieldPath.joined(separator: ".")) else { continue }
                    let description = f["description"].flatMap { reader.string($0, what: "`description`") }
                    if let type = schemaType(typeNode.scalar!.value, at: typeNode.span, allowMap: true) {
                        object[name] = .value(type)
                        schemaFields.append(SchemaField(path: fieldPath, type: type, description: description, span: pair.key.span))
                    }
                } else {
                    object[name] = .object(schemaObject(mapping, path: fieldPath))
                }
            } else {
                reader.diagnostics.error(.wrongShape, "expected a type or a mapping for field `\(fieldPath.joined(separator: "."))`, found a list", at: value.span)
            }
        }
        return object
    }

    /// Parses a schema type, reporting `H0208` with "did you mean" when it is not one.
    /// `allowMap`: a `state` or `user` field, which may be a `map<T>` (`H0275` elsewhere, and
    /// for a map whose values are not plain values).
    mutating func schemaType(_ text: String, at span: SourceSpan, allowMap: Bool = false) -> ValueType? {
        let trimmed = text.trimmingSpaces
        let isMap = trimmed.hasPrefix("map<") || trimmed.hasPrefix("list<map<")
        if isMap, !allowMap || !trimmed.hasPrefix("map<") || trimmed.hasSuffix("?") {
            reader.diagnostics.error(.mapElementType,
                                     "`\(text)`: a map is a field of the `state` or `user` schema, `map<T>`, never optional or in a list",
                                     at: span, notes: [.init("a missing key already reads as absent: `m[key] ?? <default>`")])
            return nil
        }
        if isMap, SchemaTypeParser.parse(text) == nil {
            reader.diagnostics.error(.mapElementType,
                                     "`\(text)`: a map's values are plain values (bool, int, string, duration, instant, time, date, weekday or an enum), not a list, a map or an optional",
                                     at: span)
            return nil
        }
        if let type = SchemaTypeParser.parse(text) { return type }
        let head = String(text.prefix { $0.isLetter })
        let aliases = ["integer": "int", "number": "int", "boolean": "bool", "str": "string", "text": "string",
                       "timestamp": "instant", "datetime": "instant", "date-time": "instant", "array": "list", "day": "weekday"]
        let suggestion = aliases[text.lowercased()] ?? Suggestions.closest(to: text, in: LanguageKeys.schemaTypes)
            ?? (head != text ? Suggestions.closest(to: head, in: LanguageKeys.schemaTypes) : nil)
        reader.diagnostics.error(.invalidSchemaType,
                                 "unknown type `\(text)`; expected bool, int, string, duration, instant, time, date, weekday, enum(a, b), list<T> or T?",
                                 at: span, suggestion: suggestion)
        return nil
    }

    // MARK: Reasons and routes

    mutating func compileReasons() -> NamedTable<Reason> {
        var table = NamedTable<Reason>()
        for pair in sections.named["reasons", default: []] {
            let code = pair.key.value
            reader.checkIdentifier(code, at: pair.key.span, what: "reason")
            var description: String?
            if let scalar = pair.value.scalar, !pair.value.isNull {
                description = scalar.value
            } else if let f = reader.fields(pair.value, LanguageKeys.reason, owner: code) {
                description = f["description"].flatMap { reader.string($0, what: "`description`") }
            }
            table.insert(Reason(code: code, description: description, isBuiltIn: false, span: pair.key.span), named: code)
        }
        return table
    }

    mutating func compileRoutes() -> NamedTable<Route> {
        var table = NamedTable<Route>()
        for pair in sections.named["routes", default: []] {
            let name = pair.key.value
            reader.checkIdentifier(name, at: pair.key.span, what: "route")
            guard let f = reader.fields(pair.value, LanguageKeys.route, owner: name, ownerSpan: pair.key.span) else { continue }
            var params: [(name: String, type: ValueType)] = []
            if let node = f["params"], let pairs = reader.mapping(node, what: "a route's `params`") {
                for param in pairs {
                    reader.checkFieldName(param.key.value, at: param.key.span, what: "route param")
                    var typeNode: YAMLNode? = param.value
                    if param.value.mapping != nil {
                        typeNode = reader.fields(param.value, LanguageKeys.routeParam, owner: param.key.value)?["type"]
                    }
                    guard let typeNode, let text = reader.string(typeNode, what: "a route param's type"),
                          let type = schemaType(text, at: typeNode.span) else { continue }
                    params.append((param.key.value, type))
                }
            }
            _ = f["description"].flatMap { reader.string($0, what: "`description`") }
            var url: RouteTemplate?
            if let node = f["url"], let scalar = reader.scalar(node, what: "a route's `url`") {
                let declared = Dictionary(params.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
                url = RouteTemplate.compile(scalar, span: node.span, declared: declared, scheme: scheme, diagnostics: &reader.diagnostics)
            }
            table.insert(Route(name: name, url: url, params: params, span: pair.key.span), named: name)
        }
        return table
    }

    // MARK: Categories

    mutating func compileCategories() -> NamedTable<Category> {
        var table = NamedTable<Category>()
        for pair in sections.named["categories", default: []] {
            let name = pair.key.value
            reader.checkIdentifier(name, at: pair.key.span, what: "category")
            guard let f = reader.fields(pair.value, LanguageKeys.category, owner: name, ownerSpan: pair.key.span) else { continue }
            let title = f["title"].flatMap { reader.string($0, what: "`title`") }
            let defaultOn = f["default"].flatMap { reader.bool($0, what: "`default`") } ?? true
            let locked = f["locked"].flatMap { reader.bool($0, what: "`locked`") } ?? false
            let requires = f["requires"].flatMap { expression($0, what: "`requires`", expecting: .bool, params: [:]) }
            var allowed: [String: ValueType] = ["type": .string, "subject": .string]
            for type in typeNames where categoryOfType[type] == name {
                for (param, t) in paramTypes(of: type) where allowed[param] == nil { allowed[param] = t }
            }
            let threadId = f["threadId"].flatMap { template($0, what: "`threadId`", allowed: allowed) }
            let interruption = f["interruption"].flatMap { reader.enumValue($0, what: "`interruption`", as: Interruption.self) } ?? .active
            var channels: [(channel: String, on: Bool)] = []
            var channelTitles: [String: String] = [:]
            if let node = f["channels"], let pairs = reader.mapping(node, what: "a category's `channels`") {
                for entry in pairs {
                    reference(entry.key.value, at: entry.key.span, in: channelNames, code: .unknownChannel, what: "channel")
                    // `email: { default: true, title: "Invoices & Receipts" }` (docs/seeds.md P22).
                    if entry.value.mapping != nil {
                        guard let c = reader.fields(entry.value, LanguageKeys.categoryChannel, owner: "\(name).\(entry.key.value)") else { continue }
                        let on = c["default"].flatMap { reader.bool($0, what: "a channel toggle") } ?? true
                        channels.append((entry.key.value, on))
                        if let label = c["title"].flatMap({ reader.string($0, what: "a channel's `title`") }) { channelTitles[entry.key.value] = label }
                    } else if let on = reader.bool(entry.value, what: "a channel toggle") {
                        channels.append((entry.key.value, on))
                    }
                }
            }
            var keepChannels: [String] = []
            if let node = f["keepChannels"], let names = reader.names(node, what: "`keepChannels`") {
                for (channel, span) in names where reference(channel, at: span, in: channelNames, code: .unknownChannel, what: "channel") {
                    keepChannels.append(channel)
                }
            }
            let description = f["description"].flatMap { reader.string($0, what: "`description`") }
            guard let title else { continue }
            var category = Category(name: name, title: title, description: description, defaultOn: defaultOn, locked: locked,
                                    requires: requires, threadId: threadId, interruption: interruption, channels: channels,
                                    span: pair.key.span, keySpans: f.keySpans())
            category.keepChannels = keepChannels
            category.channelTitles = channelTitles
            category.render = compileRenderKeys(f, owner: name, payload: nil)
            table.insert(category, named: name)
        }
        return table
    }
}
