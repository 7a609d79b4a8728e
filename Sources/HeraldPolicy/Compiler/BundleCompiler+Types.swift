import HeraldSyntax

extension Compilation {
    /// First pass over the types: their params and categories, which categories (thread ids),
    /// policy rules and templates need before the types themselves compile.
    mutating func compileAllParams() {
        for pair in sections.named["types", default: []] {
            guard let mapping = pair.value.mapping else { continue }
            if let category = mapping.first(where: { $0.key.value == "category" })?.value.scalar?.value {
                categoryOfType[pair.key.value] = category
            }
            guard let node = mapping.first(where: { $0.key.value == "params" })?.value,
                  let pairs = reader.mapping(node, what: "a type's `params`") else { continue }
            var params: [Param] = []
            for param in pairs {
                let name = param.key.value
                reader.checkFieldName(name, at: param.key.span, what: "param")
                if ["type", "subject", "localDate"].contains(name) {
                    reader.diagnostics.error(.invalidIdentifier, "param name `\(name)` is reserved for templates; choose another name", at: param.key.span)
                }
                var typeNode: YAMLNode? = param.value
                var sensitive = false
                var description: String?
                if param.value.mapping != nil {
                    guard let f = reader.fields(param.value, LanguageKeys.param, owner: name, ownerSpan: param.key.span) else { continue }
                    typeNode = f["type"]
                    sensitive = f["sensitive"].flatMap { reader.bool($0, what: "`sensitive`") } ?? false
                    description = f["description"].flatMap { reader.string($0, what: "`description`") }
                }
                guard let typeNode, let text = reader.string(typeNode, what: "a param's type"),
                      let type = schemaType(text, at: typeNode.span) else { continue }
                params.append(Param(name: name, type: type, sensitive: sensitive, description: description, span: param.key.span))
            }
            paramsByType[pair.key.value] = params
        }
    }

    /// Compiles every type, in chunks spread over the machine's cores when there are many.
    /// Compiling a type reads the compilation's tables and only adds diagnostics, so each
    /// chunk runs on its own copy; types and diagnostics are merged in declaration order,
    /// the same result as compiling them one by one.
    mutating func compileTypes(_ pairs: [YAMLPair]) -> [NotificationType?] {
        let chunkSize = 512
        guard pairs.count > chunkSize else { return pairs.map { compileType($0) } }
        var base = self
        base.reader.diagnostics = Diagnostics()
        let start = UncheckedSendable(base)
        let all = UncheckedSendable(pairs)
        let chunks = stride(from: 0, to: pairs.count, by: chunkSize).map { $0 ..< min($0 + chunkSize, pairs.count) }
        let results = Concurrently.map(chunks) { range in
            var compilation = start.value
            let types = all.value[range].map { compilation.compileType($0) }
            return UncheckedSendable((types, compilation.reader.diagnostics))
        }
        var types: [NotificationType?] = []
        types.reserveCapacity(pairs.count)
        for result in results {
            types += result.value.0
            reader.diagnostics.append(contentsOf: result.value.1)
        }
        return types
    }

    mutating func compileType(_ pair: YAMLPair) -> NotificationType? {
        let id = pair.key.value
        reader.checkIdentifier(id, at: pair.key.span, what: "type")
        guard let f = reader.fields(pair.value, LanguageKeys.type, owner: id, ownerSpan: pair.key.span) else { return nil }
        let params = paramsByType[id] ?? []
        let paramTypes = self.paramTypes(of: id)
        // `computed:` values are shown by the type's templates like params (not by its
        // conditions, which read the params and state they are computed from).
        var rejected: [String] = []
        let computed = f["computed"].map { compileComputed($0, type: id, params: paramTypes, rejected: &rejected) } ?? []
        var templateTypes = paramTypes
        for value in computed { templateTypes[value.name] = value.type }
        // A computed value already reported is not reported again by each template naming it.
        for name in rejected { templateTypes[name] = .string }
        var textPlaceholders = templateTypes
        textPlaceholders["type"] = .string
        textPlaceholders["subject"] = .string

        var category: String?
        if let node = f["category"], let name = reader.string(node, what: "`category`"),
           reference(name, at: node.span, in: categoryNames, code: .unknownCategory, what: "category") {
            category = name
        }
        var channels: [String] = []
        if let node = f["channels"], let names = reader.names(node, what: "`channels`") {
            if names.isEmpty, node.sequence != nil {
                reader.diagnostics.error(.emptyList, "type `\(id)` names no channel; list at least one in `channels`", at: node.span)
            }
            for (name, span) in names where reference(name, at: span, in: channelNames, code: .unknownChannel, what: "channel") {
                channels.append(name)
            }
        }
        var fallback: String?
        if let node = f["fallback"], let name = reader.string(node, what: "`fallback`"),
           reference(name, at: node.span, in: channelNames, code: .unknownChannel, what: "channel") {
            fallback = name
        }
        let defaultOn = f["default"].flatMap { reader.bool($0, what: "`default`") } ?? true
        let description = f["description"].flatMap { reader.string($0, what: "`description`") }
        let eligible = f["eligible"].flatMap { expression($0, what: "`eligible`", expecting: .bool, params: paramTypes) }
        let timing = f["timing"].map { compileTiming($0, type: id, params: params) } ?? Timing()

        var caps: [Cap] = []
        if let node = f["caps"], let items = reader.sequence(node, what: "`caps`") {
            for (index, item) in items.enumerated() {
                if let cap = compileCap(item, owner: id, defaultID: "\(id).caps[\(index)]", place: LanguageKeys.cap) { caps.append(cap) }
            }
        }
        var suppress: [SuppressRule] = []
        if let node = f["suppress"], let items = reader.sequence(node, what: "`suppress`") {
            for (index, item) in items.enumerated() {
                if let rule = compileRule(item, owner: id, defaultID: "\(id).suppress[\(index)]", params: paramTypes) { suppress.append(rule) }
            }
        }
        var keyPlaceholders = textPlaceholders
        keyPlaceholders["localDate"] = .string
        var dedupe: Dedupe?
        if let node = f["dedupe"], let d = reader.fields(node, LanguageKeys.typeDedupe, owner: id) {
            let key = d["key"].flatMap { template($0, what: "`dedupe.key`", allowed: keyPlaceholders) }
            let window = d["window"].flatMap { reader.duration($0, what: "`dedupe.window`") }
            dedupe = Dedupe(key: key, window: window, span: node.span)
            if let byNode = d["by"], reader.word(byNode, what: "`dedupe.by`", allowed: ["key", "content"]) == "content" {
                dedupe?.byContent = true
                checkContentDedupe(byNode, type: id, dedupeKey: d["key"], idempotencyKey: f["idempotencyKey"],
                                   hasCopy: f["copy"] != nil)
            }
        }
        let idempotencyKey = f["idempotencyKey"].flatMap { template($0, what: "`idempotencyKey`", allowed: keyPlaceholders) }
        var subjectPlaceholders = templateTypes
        subjectPlaceholders["type"] = .string
        let subject = f["subject"].flatMap { template($0, what: "`subject`", allowed: subjectPlaceholders) }
        let critical = f["critical"].flatMap { reader.bool($0, what: "`critical`") } ?? false
        let locked = f["locked"].flatMap { reader.bool($0, what: "`locked`") } ?? false
        let silent = f["silent"].flatMap { reader.bool($0, what: "`silent`") } ?? false
        let interruption = f["interruption"].flatMap { reader.enumValue($0, what: "`interruption`", as: Interruption.self) }
        let threadId = f["threadId"].flatMap { template($0, what: "`threadId`", allowed: textPlaceholders) }
        let priority = f["priority"].flatMap { reader.int($0, what: "`priority`") }
        var copy: Copy?
        if let node = f["copy"] {
            copy = compileCopy(node, owner: id, allowed: textPlaceholders)
        } else if !silent {
            reader.diagnostics.error(.missingKey, "missing required key `copy` in type `\(id)` (only a `silent: true` type may leave it out)", at: pair.key.span)
        }
        let link = f["link"].flatMap { compileLink($0, allowed: textPlaceholders) }
        let delivery = f["delivery"].flatMap { reader.enumValue($0, what: "`delivery`", as: Delivery.self) } ?? .first
        if delivery == .all, let node = f["delivery"] {
            if channels.count < 2, f["channels"] != nil {
                reader.diagnostics.error(.deliveryAllOneChannel,
                                         "type `\(id)` has `delivery: all` but only \(channels.count == 1 ? "one channel" : "no channel"); list every channel it delivers on in `channels`",
                                         at: node.span)
            }
            if let fallbackNode = f["fallback"] {
                reader.diagnostics.error(.deliveryAllFallback,
                                         "type `\(id)` has `delivery: all` and a `fallback`; every channel already gets its own decision",
                                         at: fallbackNode.span,
                                         notes: [.init("a channel whose permission is denied is suppressed `system_denied`; list the fallback channel in `channels` instead", span: node.span)])
            }
        }

        let render = compileRenderKeys(f, owner: id, payload: textPlaceholders)
        checkRenderChannels(f, type: id, channels: channels)

        guard let category, !channels.isEmpty else { return nil }
        var keySpans = f.keySpans()
        for section in ["timing", "dedupe"] {
            if let node = f[section], let pairs = node.mapping {
                keySpans.merge(Fields(pairs: pairs, node: node).keySpans(prefix: section + ".")) { first, _ in first }
            }
        }
        keySpans = keySpans.filter { NotificationType.citedKeys.contains($0.key) }
        var type = NotificationType(
            id: id, category: category, channels: channels, fallback: fallback, defaultOn: defaultOn,
            description: description, params: params, eligible: eligible, timing: timing, caps: caps, suppress: suppress,
            dedupe: dedupe, idempotencyKey: idempotencyKey, subject: subject, critical: critical, locked: locked,
            silent: silent, interruption: interruption, threadId: threadId, priority: priority, copy: copy, link: link,
            span: pair.key.span, keySpans: keySpans)
        type.delivery = delivery
        type.render = render
        type.computed = computed
        checkComputedUsed(type)
        return type
    }

    // MARK: Timing

    mutating func compileTiming(_ node: YAMLNode, type: String, params: [Param]) -> Timing {
        var timing = Timing(span: node.span)
        guard let f = reader.fields(node, LanguageKeys.timing, owner: type) else { return timing }
        if let at = f["at"], let anchor = compileAnchor(at, params: params) { timing.at = anchor }
        if let n = f["offset"], let seconds = reader.duration(n, what: "`offset`", signed: true) { timing.offset = seconds }
        if let n = f["trainingDays"], let b = reader.bool(n, what: "`trainingDays`") { timing.trainingDays = b }
        timing.expires = f["expires"].flatMap { reader.duration($0, what: "`expires`") }
        timing.quietHours = f["quietHours"].flatMap { reader.enumValue($0, what: "`timing.quietHours`", as: QuietHoursTreatment.self) }
        if let n = f["sameDay"], let b = reader.bool(n, what: "`sameDay`") {
            timing.sameDay = b
            switch timing.at {
            case .reminderTime, .localTime, .localState: break
            default:
                if b {
                    reader.diagnostics.error(.sameDayWithoutClock,
                                             "`sameDay` on `\(type)` needs `at: reminder_time` or `at: local(\"HH:MM\")`",
                                             at: n.span, notes: [.init("only a time of day has a day to stay on; an instant is already one moment")])
                }
            }
        }
        if let n = f["judgedAt"], let v = reader.enumValue(n, what: "`timing.judgedAt`", as: JudgedAt.self) { timing.judgedAt = v }
        if let n = f["past"], let v = reader.enumValue(n, what: "`timing.past`", as: PastTreatment.self) {
            timing.past = v
            // The aligned instant of an immediate type is the trigger itself: every trigger
            // reported a second late would be skipped.
            if v == .skip, timing.at == .immediate, timing.offset <= 0 {
                reader.diagnostics.warning(.pastSkipImmediate,
                                           "`past: skip` on `\(type)` skips every trigger decided after its own instant, because `at: immediate` aligns to the trigger",
                                           at: n.span, notes: [.init("use `past: skip` with `reminder_time`, `local(…)`, `param(…)` or `state(…)`")])
            }
        }
        return timing
    }

    /// The argument of `local(state(path))` or `local(state(path) ?? "HH:MM")`: a `time` field of
    /// the state schema (`H0269`); an optional one needs the fallback, a required one takes
    /// none (`H0270`).
    mutating func compileLocalState(_ argument: String, span: SourceSpan) -> TimingAnchor? {
        guard let close = argument.firstIndex(of: ")") else {
            reader.diagnostics.error(.invalidEnumValue, "unclosed `state(` in `local(…)`; write `local(state(<path>))`", at: span)
            return nil
        }
        let pathText = String(argument[argument.index(argument.startIndex, offsetBy: 6)..<close]).trimmingSpaces
        let rest = String(argument[argument.index(after: close)...]).trimmingSpaces
        let times = schemaFields.filter { $0.path.first == "state" && $0.type.unwrapped == .time }
        guard let field = times.first(where: { $0.path.dropFirst().joined(separator: ".") == pathText }) else {
            reader.diagnostics.error(.localStateField, "`state(\(pathText))` in `local(…)` names no `time` field of the state schema",
                                     at: span, suggestion: Suggestions.closest(to: pathText, in: times.map { $0.path.dropFirst().joined(separator: ".") }))
            return nil
        }
        let path = Array(field.path.dropFirst())
        var fallback: Int?
        if !rest.isEmpty {
            guard rest.hasPrefix("??") else {
                reader.diagnostics.error(.invalidEnumValue, "unexpected `\(rest)` after `state(\(pathText))` in `local(…)`; write `?? \"HH:MM\"` for a fallback", at: span)
                return nil
            }
            var time = String(rest.dropFirst(2)).trimmingSpaces
            if time.count >= 2, let q = time.first, q == "\"" || q == "'", time.last == q { time = String(time.dropFirst().dropLast()) }
            guard let seconds = NodeReader.parseTimeOfDay(time) else {
                reader.diagnostics.error(.invalidTimeOfDay, "invalid fallback time of day `\(time)` in `local(…)`; write `HH:MM` on a 24-hour clock", at: span)
                return nil
            }
            fallback = seconds
        }
        let optional = field.type.isOptional
        if optional, fallback == nil {
            reader.diagnostics.error(.localStateFallback,
                                     "`state.\(pathText)` may be absent; give the time to use then, as in `local(state(\(pathText)) ?? \"18:00\")`", at: span)
            return nil
        }
        if !optional, fallback != nil {
            reader.diagnostics.error(.localStateFallback,
                                     "`state.\(pathText)` is never absent, so the fallback is never used; write `local(state(\(pathText)))`", at: span)
            return nil
        }
        return .localState(path, fallback: fallback)
    }

    /// `immediate` · `reminder_time` · `local("09:00")` · `param(name)` · `state(path)`.
    mutating func compileAnchor(_ node: YAMLNode, params: [Param]) -> TimingAnchor? {
        guard let scalar = reader.scalar(node, what: "`timing.at`") else { return nil }
        let text = scalar.value
        if text == "immediate" { return .immediate }
        if text == "reminder_time" { return .reminderTime }
        if let call = NodeReader.call(text), ["local", "param", "state"].contains(call.name) {
            let argumentSpan = scalar.span(ofValueRange: call.offset..<(call.offset + call.argument.utf8.count))
            var argument = call.argument
            if argument.count >= 2, let q = argument.first, q == "\"" || q == "'", argument.last == q {
                argument = String(argument.dropFirst().dropLast())
            }
            switch call.name {
            case "local":
                if let seconds = NodeReader.parseTimeOfDay(argument) { return .localTime(seconds) }
                if call.argument.hasPrefix("state(") {
                    return compileLocalState(call.argument, span: argumentSpan)
                }
                reader.diagnostics.error(.invalidTimeOfDay, "invalid time of day `\(argument)` in `local(…)`; write `HH:MM` on a 24-hour clock, as in `local(\"09:00\")`", at: argumentSpan)
                return nil
            case "param":
                guard let param = params.first(where: { $0.name == argument }) else {
                    reader.diagnostics.error(.unknownParam, "unknown param `\(argument)` in `param(…)`; the type declares no such param",
                                             at: argumentSpan, suggestion: Suggestions.closest(to: argument, in: params.map(\.name)))
                    return nil
                }
                guard param.type.unwrapped == .instant else {
                    reader.diagnostics.error(.unknownParam, "param `\(argument)` is \(param.type), not an instant; `param(…)` needs an instant param", at: argumentSpan)
                    return nil
                }
                return .param(argument)
            default:
                let path = argument.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                let instants = schemaFields.filter { $0.path.first == "state" && $0.type.unwrapped == .instant }
                    .map { $0.path.dropFirst().joined(separator: ".") }
                guard instants.contains(argument) else {
                    reader.diagnostics.error(.unknownStateField, "`state(\(argument))` names no instant field of the state schema",
                                             at: argumentSpan, suggestion: Suggestions.closest(to: argument, in: instants))
                    return nil
                }
                return .state(path)
            }
        }
        let head = String(text.prefix { $0 != "(" })
        reader.diagnostics.error(.invalidEnumValue,
                                 "invalid value `\(text)` for `timing.at`; expected `immediate`, `reminder_time`, `local(\"HH:MM\")`, `param(<name>)` or `state(<path>)`",
                                 at: node.span, suggestion: Suggestions.closest(to: head, in: LanguageKeys.timingAnchors))
        return nil
    }

    // MARK: Copy and links

    mutating func compileCopy(_ node: YAMLNode, owner: String, allowed: [String: ValueType]) -> Copy? {
        guard let f = reader.fields(node, LanguageKeys.copy, owner: owner) else { return nil }
        func field(_ key: String, _ c: inout Compilation) -> MessageTemplate? {
            f[key].flatMap { c.template($0, what: "`copy.\(key)`", allowed: allowed) }
        }
        return Copy(title: field("title", &self), subtitle: field("subtitle", &self), body: field("body", &self),
                    lockscreen: field("lockscreen", &self), span: node.span)
    }

    /// `{ route: name, <param>: literal-or-template, … }`.
    mutating func compileLink(_ node: YAMLNode, allowed: [String: ValueType]) -> Link? {
        guard let pairs = reader.mapping(node, what: "`link`") else { return nil }
        guard let routePair = pairs.first(where: { $0.key.value == "route" }) else {
            reader.diagnostics.error(.missingKey, "missing required key `route` in `link`", at: node.span)
            return nil
        }
        guard let routeName = reader.string(routePair.value, what: "`link.route`") else { return nil }
        let route = routes[routeName]
        if route == nil {
            // Only a declared route that failed to compile is absent from `routes` but named.
            let declared = sections.named["routes", default: []].map(\.key.value)
            if !declared.contains(routeName) {
                reference(routeName, at: routePair.value.span, in: declared, code: .unknownRoute, what: "route")
            }
        }
        var bindings: [Link.Binding] = []
        var misspelt = false
        for pair in pairs where pair.key.value != "route" {
            let param = pair.key.value
            if let route, route.paramType(param) == nil {
                let names = route.params.map(\.name)
                reader.diagnostics.error(.unknownRouteParam, "route `\(routeName)` has no param `\(param)`", at: pair.key.span,
                                         notes: names.isEmpty ? [.init("route `\(routeName)` takes no params", span: route.span)] : [],
                                         suggestion: Suggestions.closest(to: param, in: names))
                misspelt = true
                continue
            }
            guard let scalar = reader.scalar(pair.value, what: "a link param") else { continue }
            if let route, case .enumeration(let e)? = route.paramType(param)?.unwrapped,
               !scalar.value.contains("{"), !e.cases.contains(scalar.value) {
                reader.diagnostics.error(.invalidRouteArgument,
                                         "`\(scalar.value)` is not a case of route param `\(param)`; expected \(NodeReader.list(e.cases))",
                                         at: pair.value.span, suggestion: Suggestions.closest(to: scalar.value, in: e.cases))
                continue
            }
            if let value = MessageTemplate.compile(scalar, span: pair.value.span, allowed: allowed, refused: templateRefusals,
                                                  diagnostics: &reader.diagnostics) {
                // A required route param must not take an optional param of the type: absent,
                // it would render an empty path segment or query value (docs/templates.md).
                if let route, let routeType = route.paramType(param) {
                    var routeOptional = false
                    if case .optional = routeType { routeOptional = true }
                    let optionalUsed = value.placeholders.filter { name in
                        if case .optional? = allowed[name] { true } else { false }
                    }
                    if !routeOptional, let first = optionalUsed.first {
                        reader.diagnostics.error(.routeRequiredFromOptional,
                                                 "route param `\(param)` is required, but its binding uses `{\(first)}`, which may be absent; declare the route param `\(routeType)?` (the whole value of a query item) or bind a value that is always present",
                                                 at: pair.value.span, notes: [.init("route `\(routeName)` declared here", span: route.span)])
                        continue
                    }
                }
                bindings.append(Link.Binding(param: param, value: value, span: pair.key.span))
            }
        }
        // A misspelt param is reported once, as the unknown one, not again as unbound.
        if let route, !misspelt {
            let bound = Set(pairs.map(\.key.value))
            // An optional route param may be left unbound: its query item is left out.
            for param in route.params where !bound.contains(param.name) {
                if case .optional = param.type { continue }
                reader.diagnostics.error(.unboundRouteParam, "link to route `\(routeName)` leaves its param `\(param.name)` unbound; add `\(param.name): …`",
                                         at: node.span, notes: [.init("route `\(routeName)` declared here", span: route.span)])
            }
        }
        return Link(route: routeName, bindings: bindings, span: node.span)
    }
}
