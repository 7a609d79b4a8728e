import HeraldSyntax
import HeraldContract
import HeraldEngine
import HeraldPolicy

/// The scenario format's reader: one method per part, each reporting its own problems with the
/// node's span and carrying on, so one run lists every mistake.
struct Reader {
    let engine: Engine
    var diagnostics: Diagnostics

    init(engine: Engine, diagnostics: Diagnostics) {
        self.engine = engine
        self.diagnostics = diagnostics
    }

    // MARK: Sections

    mutating func scenario(_ root: YAMLNode, path: String) -> Scenario? {
        guard let pairs = mapping(root, "a scenario file must be a mapping with `users`, `days` and `triggers`") else { return nil }
        checkKeys(pairs, ScenarioLoader.topKeys, in: "the scenario")
        for required in ["users", "days", "triggers"] where root[required] == nil {
            diagnostics.error(.scenarioStructure, "a scenario needs `\(required)`", at: root.span)
        }
        let fileName = path.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? path
        let name = root["name"].flatMap { string($0, "`name`") } ?? fileName
        let description = root["description"].flatMap { string($0, "`description`") }
        let users = root["users"].flatMap { integer($0, "`users`", 1...1_000_000) } ?? 1
        let days = root["days"].flatMap { integer($0, "`days`", 1...366) } ?? 7
        let seed = root["seed"].flatMap { integer($0, "`seed`", 0...Int.max) } ?? 1
        var start = CivilDate(year: 2026, month: 3, day: 9).days
        if let node = root["start"] {
            if let text = string(node, "`start`"), let date = Self.parseDate(text) {
                start = date
            } else if node.scalar != nil {
                diagnostics.error(.scenarioDate, "`start` must be a date `YYYY-MM-DD`, not `\(node.scalar!.value)`", at: node.span)
            }
        }
        let population = self.population(root["population"])
        var triggers: [Scenario.Trigger] = []
        if let node = root["triggers"] {
            if let items = node.sequence {
                triggers = items.compactMap { trigger($0) }
            } else {
                diagnostics.error(.scenarioStructure, "`triggers` must be a list of triggers (`type` and one of `at`, `perDay`, `times`)", at: node.span)
            }
        }
        let plan = root["plan"].flatMap { self.plan($0) }
        var changes: [Scenario.Change] = []
        if let node = root["changes"] {
            if let items = node.sequence {
                changes = items.compactMap { change($0, days: days) }
            } else {
                diagnostics.error(.scenarioStructure, "`changes` must be a list of `{ day, share, state/user/prefs }` entries", at: node.span)
            }
        }
        let behaviour = self.behaviour(root["behaviour"])
        return Scenario(name: name, description: description, path: path, users: users, days: days, start: start,
                        seed: UInt64(seed), population: population, triggers: triggers, plan: plan, changes: changes,
                        behaviour: behaviour)
    }

    mutating func population(_ node: YAMLNode?) -> Scenario.Population {
        var population = Scenario.Population(timezone: .literal(.string(engine.bundle.defaults.timezone)),
                                             permission: .literal(.string("granted")), prefs: .empty, user: .empty,
                                             state: .empty, daily: .empty)
        guard let node else { return population }
        guard let pairs = mapping(node, "`population` must be a mapping of `timezone`, `permission`, `prefs`, `user`, `state`, `daily`") else {
            return population
        }
        checkKeys(pairs, ScenarioLoader.populationKeys, in: "`population`")
        if let zone = node["timezone"] {
            let spec = value(zone)
            for (value, span) in literals(spec, node: zone) {
                if let name = value.stringValue, Zone(identifier: name) != nil { continue }
                let shown = value.stringValue ?? value.description
                diagnostics.error(.scenarioUnknownZone, "unknown time zone `\(shown)`", at: span)
            }
            population.timezone = spec
        }
        if let permission = node["permission"] {
            let spec = value(permission)
            for (value, span) in literals(spec, node: permission) {
                if Permission(rawValue: value.stringValue ?? "") == nil {
                    diagnostics.error(.scenarioStructure, "`permission` must be one of `granted`, `denied`, `provisional`, `unknown`, not `\(value.stringValue ?? value.description)`", at: span)
                }
            }
            population.permission = spec
        }
        for (key, path) in [("prefs", \Scenario.Population.prefs), ("user", \.user), ("state", \.state), ("daily", \.daily)] {
            guard let part = node[key] else { continue }
            if part.mapping == nil {
                diagnostics.error(.scenarioStructure, "`population.\(key)` must be a mapping of fields", at: part.span)
                continue
            }
            population[keyPath: path] = value(part)
        }
        return population
    }

    mutating func trigger(_ node: YAMLNode) -> Scenario.Trigger? {
        guard let pairs = mapping(node, "a trigger must be a mapping with `type` and one of `at`, `perDay`, `times`") else { return nil }
        checkKeys(pairs, ScenarioLoader.triggerKeys, in: "a trigger")
        guard let typeNode = node["type"], let type = string(typeNode, "`type`") else {
            diagnostics.error(.scenarioStructure, "a trigger needs a `type`", at: node.span)
            return nil
        }
        let typeKnown = checkType(type, at: typeNode.span)
        let timingKeys = ["at", "perDay", "times"].filter { node[$0] != nil }
        if timingKeys.count != 1 {
            let message = timingKeys.isEmpty
                ? "trigger `\(type)` needs one of `at`, `perDay` or `times`"
                : "trigger `\(type)` has " + timingKeys.map { "`\($0)`" }.joined(separator: " and ") + "; give exactly one"
            diagnostics.error(.scenarioTriggerTiming, message, at: node.span)
        }
        if node["between"] != nil && node["perDay"] == nil {
            diagnostics.error(.scenarioTriggerTiming, "`between` goes with `perDay` only", at: node["between"]!.span)
        }
        var timing = Scenario.Trigger.Timing.at([])
        if let at = node["at"] {
            timing = .at(timesOfDay(at))
        } else if let rateNode = node["perDay"] {
            let rate = number(rateNode, "`perDay`", 0...1000) ?? 0
            var from = 0, to = 1440
            if let between = node["between"] {
                if let items = between.sequence, items.count == 2,
                   let a = timeOfDay(items[0]), let b = timeOfDay(items[1]) {
                    if a >= b {
                        diagnostics.error(.scenarioTimeOfDay, "`between` must be `[from, to]` with `from` before `to`", at: between.span)
                    }
                    (from, to) = (a, b)
                } else if between.sequence?.count != 2 {
                    diagnostics.error(.scenarioTimeOfDay, "`between` must be `[from, to]`, two times of day", at: between.span)
                }
            }
            timing = .perDay(rate: rate, from: from, to: max(to, from + 1))
        } else if let times = node["times"] {
            var instants: [Int] = []
            for item in times.sequence ?? [times] {
                guard let text = item.scalar?.value, let instant = RFC3339.parse(text) else {
                    diagnostics.error(.scenarioDate, "`times` must list RFC 3339 date-times with an offset, not `\(item.scalar?.value ?? item.shapeDescription)`", at: item.span)
                    continue
                }
                instants.append(instant)
            }
            timing = .times(instants.sorted())
        }
        let probability = node["probability"].flatMap { number($0, "`probability`", 0...1) } ?? 1
        let weekdays = node["weekdays"].map { self.weekdaySet($0) } ?? []
        let params = node["params"].map { part -> ValueSpec in
            if part.mapping == nil { diagnostics.error(.scenarioStructure, "`params` must be a mapping", at: part.span) }
            return value(part)
        } ?? .empty
        let subject = node["subject"].map { self.value($0) }
        guard typeKnown else { return nil }
        return Scenario.Trigger(type: type, timing: timing, probability: probability, weekdays: weekdays, params: params,
                                subject: subject, span: node.span)
    }

    mutating func plan(_ node: YAMLNode) -> Scenario.DailyPlan? {
        guard let pairs = mapping(node, "`plan` must be a mapping with `at`, `horizon` and `candidates`") else { return nil }
        checkKeys(pairs, ScenarioLoader.planKeys, in: "`plan`")
        let at = node["at"].flatMap { self.timeOfDay($0) } ?? 0
        if node["at"] == nil { diagnostics.error(.scenarioStructure, "`plan` needs `at`, the local time it runs", at: node.span) }
        let horizon = node["horizon"].flatMap { self.duration($0) } ?? 86_400
        var candidates: [Scenario.DailyPlan.Candidate] = []
        if let list = node["candidates"]?.sequence {
            for item in list {
                guard let pairs = mapping(item, "a plan candidate must be `{ type, at, params }`") else { continue }
                checkKeys(pairs, ScenarioLoader.candidateKeys, in: "a plan candidate")
                guard let typeNode = item["type"], let type = string(typeNode, "`type`") else {
                    diagnostics.error(.scenarioStructure, "a plan candidate needs a `type`", at: item.span)
                    continue
                }
                let known = checkType(type, at: typeNode.span)
                let time = item["at"].flatMap { self.timeOfDay($0) } ?? at
                let params = item["params"].map { self.value($0) } ?? .empty
                if known { candidates.append(.init(type: type, at: time, params: params, span: item.span)) }
            }
        } else {
            diagnostics.error(.scenarioStructure, "`plan` needs `candidates`, a list of `{ type, at, params }`", at: node.span)
        }
        return Scenario.DailyPlan(at: at, horizon: horizon, candidates: candidates, span: node.span)
    }

    mutating func change(_ node: YAMLNode, days: Int) -> Scenario.Change? {
        guard let pairs = mapping(node, "a change must be a mapping `{ day, share, state/user/prefs }`") else { return nil }
        checkKeys(pairs, ScenarioLoader.changeKeys, in: "a change")
        guard let dayNode = node["day"], let day = integer(dayNode, "`day`", Int.min...Int.max) else {
            diagnostics.error(.scenarioStructure, "a change needs `day`, the first day (1-based) it holds", at: node.span)
            return nil
        }
        if !(1...days).contains(day) {
            diagnostics.error(.scenarioChangeDay, "`day` \(day) is outside the simulated days (1 to \(days))", at: dayNode.span)
        }
        let share = node["share"].flatMap { number($0, "`share`", 0...1) } ?? 1
        return Scenario.Change(day: day, share: share, prefs: node["prefs"].map { self.value($0) }, user: node["user"].map { self.value($0) },
                               state: node["state"].map { self.value($0) }, span: node.span)
    }

    mutating func behaviour(_ node: YAMLNode?) -> Scenario.Behaviour {
        var behaviour = Scenario.Behaviour(open: nil, dismiss: nil, categories: [:])
        guard let node, let pairs = mapping(node, "`behaviour` must be a mapping of `open`, `dismiss`, `categories`") else { return behaviour }
        checkKeys(pairs, ScenarioLoader.behaviourKeys, in: "`behaviour`")
        behaviour.open = node["open"].flatMap { self.reaction($0) }
        behaviour.dismiss = node["dismiss"].flatMap { self.reaction($0) }
        if let categories = node["categories"] {
            for pair in mapping(categories, "`behaviour.categories` must map category names to `{ open, dismiss }`") ?? [] {
                if engine.bundle.categories[pair.key.value] == nil {
                    let known = engine.bundle.categories.names
                    diagnostics.error(.scenarioUnknownKey, "unknown category `\(pair.key.value)`", at: pair.key.span,
                                      suggestion: Suggestions.closest(to: pair.key.value, in: known))
                }
                guard let inner = mapping(pair.value, "a category's behaviour must be `{ open, dismiss }`") else { continue }
                checkKeys(inner, ["open", "dismiss"], in: "a category's behaviour")
                behaviour.categories[pair.key.value] = (pair.value["open"].flatMap { self.reaction($0) }, pair.value["dismiss"].flatMap { self.reaction($0) })
            }
        }
        return behaviour
    }

    mutating func reaction(_ node: YAMLNode) -> Scenario.Behaviour.Reaction? {
        guard let pairs = mapping(node, "a reaction must be `{ probability, delay }`") else { return nil }
        checkKeys(pairs, ScenarioLoader.reactionKeys, in: "a reaction")
        let probability = node["probability"].flatMap { number($0, "`probability`", 0...1) } ?? 0
        var delay = 0...0
        if let delayNode = node["delay"] {
            if let items = delayNode.sequence, items.count == 2, let a = duration(items[0]), let b = duration(items[1]) {
                if a > b { diagnostics.error(.scenarioDuration, "`delay` must be `[shortest, longest]`", at: delayNode.span) } else { delay = a...b }
            } else if delayNode.sequence == nil, let d = duration(delayNode) {
                delay = d...d
            } else if delayNode.sequence != nil {
                diagnostics.error(.scenarioDuration, "`delay` must be a duration or `[shortest, longest]`", at: delayNode.span)
            }
        }
        return .init(probability: probability, delay: delay)
    }

    // MARK: Values

    /// A value: `{ pick: [...] }`, `{ unique: prefix }`, `{ range: [a, b] }`, `{ instant: +2h }`,
    /// a mapping of values, a list of values, or a scalar.
    mutating func value(_ node: YAMLNode) -> ValueSpec {
        switch node.kind {
        case .mapping(let pairs):
            if pairs.count == 1, let special = pairs.first, ["pick", "unique", "range", "instant"].contains(special.key.value) {
                return generator(special)
            }
            return .object(pairs.map { ($0.key.value, value($0.value)) })
        case .sequence(let items):
            return .array(items.map { value($0) })
        case .scalar:
            return .literal(JSON(yaml: node))
        }
    }

    mutating func generator(_ pair: YAMLPair) -> ValueSpec {
        let node = pair.value
        switch pair.key.value {
        case "pick":
            guard let items = node.sequence, !items.isEmpty else {
                diagnostics.error(.scenarioPick, "`pick` must be a non-empty list of `value: weight` entries", at: node.span)
                return .literal(.null)
            }
            var values: [ValueSpec] = []
            var weights: [Double] = []
            for item in items {
                // `text: weight` for strings; `[value, weight]` for any value (numbers,
                // booleans, lists), since a strict YAML key is always a string.
                let option: ValueSpec
                let label: String
                let weightNode: YAMLNode
                if let entry = item.mapping, entry.count == 1 {
                    option = .literal(.string(entry[0].key.value))
                    label = entry[0].key.value
                    weightNode = entry[0].value
                } else if let pair = item.sequence, pair.count == 2 {
                    option = value(pair[0])
                    label = pair[0].scalar?.value ?? pair[0].shapeDescription
                    weightNode = pair[1]
                } else {
                    diagnostics.error(.scenarioPick, "each `pick` entry must be `text: weight` (`Europe/Berlin: 0.3`) or `[value, weight]` (`[2, 0.75]`)", at: item.span)
                    continue
                }
                guard let weight = weightNode.plainValue?.number, weight > 0 else {
                    diagnostics.error(.scenarioPick, "the weight of `\(label)` must be a positive number, not `\(weightNode.scalar?.value ?? weightNode.shapeDescription)`", at: weightNode.span)
                    continue
                }
                values.append(option)
                weights.append(weight)
            }
            // Weights are relative when they add up to 1 or more; below 1, the rest is the
            // chance the field is left unset (the policy's default applies).
            let total = weights.reduce(0, +)
            let scale = total > 0.999 ? total : 1
            var running = 0.0
            let cumulative = weights.map { weight -> Double in
                running += weight
                return running / scale
            }
            return values.isEmpty ? .literal(.null) : .pick(values, cumulative: cumulative)
        case "unique":
            return .unique(prefix: node.scalar?.value ?? "id")
        case "range":
            if let items = node.sequence, items.count == 2,
               let a = integer(items[0], "`range`", Int.min...Int.max), let b = integer(items[1], "`range`", Int.min...Int.max), a <= b {
                return .range(a...b)
            }
            diagnostics.error(.scenarioNumber, "`range` must be `[lowest, highest]`, two integers", at: node.span)
            return .literal(.null)
        default:
            guard let text = node.scalar?.value else {
                diagnostics.error(.scenarioDuration, "`instant` must be an offset from the trigger, like `+2h`", at: node.span)
                return .literal(.null)
            }
            let negative = text.hasPrefix("-")
            let body = text.hasPrefix("+") || negative ? String(text.dropFirst()) : text
            guard let seconds = Self.parseDuration(body) else {
                diagnostics.error(.scenarioDuration, "`instant` must be an offset from the trigger, like `+2h`, not `\(text)`", at: node.span)
                return .literal(.null)
            }
            return .instant(offset: negative ? -seconds : seconds)
        }
    }

    /// Every literal a spec can produce (each pick option, or the value), with its place.
    func literals(_ spec: ValueSpec, node: YAMLNode) -> [(JSON, SourceSpan)] {
        switch spec {
        case .literal(let json): return [(json, node.span)]
        case .pick(let options, _):
            let items = node["pick"]?.sequence ?? []
            return options.enumerated().compactMap { index, option in
                guard case .literal(let json) = option else { return nil }
                let span = index < items.count ? (items[index].mapping?.first?.key.span ?? items[index].sequence?.first?.span ?? items[index].span) : node.span
                return (json, span)
            }
        default: return []
        }
    }

    // MARK: Scalars

    mutating func mapping(_ node: YAMLNode, _ message: String) -> [YAMLPair]? {
        if let pairs = node.mapping { return pairs }
        diagnostics.error(.scenarioStructure, message, at: node.span)
        return nil
    }

    mutating func checkKeys(_ pairs: [YAMLPair], _ known: [String], in place: String) {
        for pair in pairs where !known.contains(pair.key.value) {
            diagnostics.error(.scenarioUnknownKey, "unknown key `\(pair.key.value)` in \(place)", at: pair.key.span,
                              suggestion: Suggestions.closest(to: pair.key.value, in: known))
        }
    }

    mutating func checkType(_ type: String, at span: SourceSpan) -> Bool {
        if engine.bundle.types[type] != nil { return true }
        diagnostics.error(.scenarioUnknownType, "unknown notification type `\(type)`", at: span,
                          suggestion: Suggestions.closest(to: type, in: engine.bundle.types.names))
        return false
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        if let scalar = node.scalar, !node.isNull { return scalar.value }
        diagnostics.error(.scenarioStructure, "\(what) must be a string, not \(node.shapeDescription)", at: node.span)
        return nil
    }

    mutating func integer(_ node: YAMLNode, _ what: String, _ range: ClosedRange<Int>) -> Int? {
        guard case .int(let n)? = node.plainValue else {
            diagnostics.error(.scenarioNumber, "\(what) must be a whole number, not `\(node.scalar?.value ?? node.shapeDescription)`", at: node.span)
            return nil
        }
        guard range.contains(n) else {
            diagnostics.error(.scenarioNumber, "\(what) must be from \(range.lowerBound) to \(range.upperBound), not \(n)", at: node.span)
            return nil
        }
        return n
    }

    mutating func number(_ node: YAMLNode, _ what: String, _ range: ClosedRange<Double>) -> Double? {
        guard let text = node.scalar?.value, let n = node.plainValue?.number else {
            diagnostics.error(.scenarioNumber, "\(what) must be a number, not `\(node.scalar?.value ?? node.shapeDescription)`", at: node.span)
            return nil
        }
        guard range.contains(n) else {
            diagnostics.error(.scenarioNumber, "\(what) must be from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound)), not \(text)", at: node.span)
            return nil
        }
        return n
    }

    static func show(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

    mutating func timesOfDay(_ node: YAMLNode) -> [Int] {
        (node.sequence ?? [node]).compactMap { self.timeOfDay($0) }.sorted()
    }

    mutating func timeOfDay(_ node: YAMLNode) -> Int? {
        if let text = node.scalar?.value, let minutes = Self.parseTimeOfDay(text) { return minutes }
        diagnostics.error(.scenarioTimeOfDay, "a time of day must be `HH:MM` (00:00 to 23:59), not `\(node.scalar?.value ?? node.shapeDescription)`", at: node.span)
        return nil
    }

    mutating func duration(_ node: YAMLNode) -> Int? {
        if let text = node.scalar?.value, let seconds = Self.parseDuration(text) { return seconds }
        diagnostics.error(.scenarioDuration, "a duration must be a number with a unit (`30s`, `15m`, `2h`, `1d`), not `\(node.scalar?.value ?? node.shapeDescription)`", at: node.span)
        return nil
    }

    mutating func weekdaySet(_ node: YAMLNode) -> Set<Int> {
        var result: Set<Int> = []
        for item in node.sequence ?? [node] {
            let name = item.scalar?.value ?? ""
            if let index = ScenarioLoader.weekdayNames.firstIndex(of: name) {
                result.insert(index + 1)
            } else {
                diagnostics.error(.scenarioWeekday, "unknown weekday `\(name)`; use `mon` … `sun`", at: item.span,
                                  suggestion: Suggestions.closest(to: name, in: ScenarioLoader.weekdayNames))
            }
        }
        return result
    }

    /// `HH:MM` → minutes after midnight.
    static func parseTimeOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }

    /// `30s`, `15m`, `2h`, `1d` → seconds.
    static func parseDuration(_ text: String) -> Int? {
        guard let unit = text.last, let n = Int(text.dropLast()), n >= 0, n <= 366 * 86_400 else { return nil }
        switch unit {
        case "s": return n
        case "m": return n * 60
        case "h": return n * 3600
        case "d": return n * 86_400
        default: return nil
        }
    }

    /// `YYYY-MM-DD` → days since 1970-01-01.
    static func parseDate(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? date.days : nil
    }
}
