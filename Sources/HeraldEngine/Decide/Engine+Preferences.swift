package import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// A `prefs.*` name: the effective preferences, with toggles defaulted by the bundle.
    func preferenceValue(_ path: [String], prefs: EffectivePreferences, input: PreferencesInput) -> Value? {
        guard path.count >= 2 else { return nil }
        switch path[1] {
        case "timezone": return .string(prefs.zone.identifier)
        case "pausedAll": return .bool(prefs.pausedAll)
        case "reminderTime": return .time(prefs.reminderTime)
        case "quietHours":
            guard path.count == 3, let q = prefs.quietHours else { return nil }
            return path[2] == "start" ? .time(q.start) : path[2] == "end" ? .time(q.end) : nil
        case "trainingDays": return .list(trainingDays(input).map(Value.weekday))
        case "maxPerDay": return prefs.maxPerDay.map(Value.int)
        case "muted": return .list((input.muted ?? []).map(Value.string))
        case "categories":
            guard path.count == 3 else { return nil }
            return .bool(categoryEnabled(path[2], categories: input.categories))
        case "channels":
            guard path.count == 3 else { return nil }
            return .bool(channelEnabled(path[2], channels: input.channels))
        case "types":
            guard path.count == 3 else { return nil }
            return .bool(input.types[path[2]] ?? bundle.types[path[2]]?.defaultOn ?? true)
        default:
            // A declared app preference (`prefs:` in the catalog): the request's value, checked
            // by `effectivePreferences(_:errors:)`, else the declared default.
            guard path.count == 2, let declared = bundle.prefs[path[1]], let fallback = declared.defaultValue else { return nil }
            return input.app[path[1]] ?? fallback
        }
    }

    /// The problem of a preference the catalog does not declare, with the closest known name
    /// (built in or declared).
    package func unknownPreference(_ name: String, builtIn: [String]) -> RequestError {
        var message = "unknown field `\(name)`"
        let known = builtIn + bundle.prefs.names.filter { $0 != "maxPerDay" }
        if let close = Suggestions.closest(to: name, in: known) { message += "; did you mean `\(close)`?" }
        return RequestError(path: "prefs." + name, message: message)
    }

    /// The type a declared app preference's value must have (nil: not declared, or built in).
    package func appPreferenceType(_ name: String) -> ValueType? {
        guard let declared = bundle.prefs[name], !declared.isBuiltin else { return nil }
        return declared.type
    }

    /// The built-in preference names (`prefs.timezone`, …), for messages.
    package static var builtInPreferences: [String] {
        ["timezone", "pausedAll", "categories", "channels", "types", "quietHours",
         "reminderTime", "trainingDays", "maxPerDay", "muted"]
    }

    /// Checks the app preferences against the catalog's declarations: an unknown name (with
    /// "did you mean" over every preference), a value of the wrong type, or one outside
    /// `allowed` (`H0256`).
    func checkDeclaredPreferences(_ input: PreferencesInput, errors: inout [RequestError]) {
        for name in input.app.keys.sorted() {
            let value = input.app[name]!
            let path = "prefs." + name
            guard let declared = bundle.prefs[name], !declared.isBuiltin else {
                errors.append(unknownPreference(name, builtIn: Self.builtInPreferences))
                continue
            }
            guard value.fits(declared.type) else {
                errors.append(RequestError(path: path, message: "expected \(Self.describePreference(declared.type)), got \(value.shown)"))
                continue
            }
            if let allowed = declared.allowed, !allowed.contains(value) {
                errors.append(Self.notAllowed(path, shown: value.shown, allowed: allowed))
            }
        }
    }

    /// What a declared preference of `type` expects, for messages.
    package static func describePreference(_ type: ValueType) -> String {
        switch type {
        case .bool: "true or false"
        case .int: "an integer"
        case .enumeration(let e): "one of " + e.cases.joined(separator: ", ")
        default: "a string"
        }
    }

    /// `H0256`: a preference value outside the declared `allowed` values.
    static func notAllowed(_ path: String, shown: String, allowed: [Value]) -> RequestError {
        let list = allowed.map { value -> String in
            switch value {
            case .int(let n): "\(n)"
            case .string(let s): s
            default: "\(value)"
            }
        }.joined(separator: ", ")
        return RequestError(path: path, message: "\(shown) is not an allowed value; expected one of \(list)", code: "H0256")
    }

    /// The user's training days: the request's, else the policy's default.
    func trainingDays(_ input: PreferencesInput) -> [Int] {
        input.trainingDays ?? core.bundle.defaults.trainingDays
    }

    /// `sent(target, window)`: the ledger's count of a type or category in the window around `now`.
    func sentCount(_ target: String, within window: SentWindow, ledger: LedgerIndex, zone: Zone, now: Int) -> Int {
        let scope: LedgerScope = bundle.types.contains(target) ? .type(target) : .category(target)
        return ledger.count(scope, in: zone.window(Self.window(window), containing: now))
    }

    /// `sent(target, window, [statuses])`: the entries of a type or category whose status is
    /// one of `statuses` (any status, also those caps do not count), in the window around
    /// `now`. Answered by the ledger's per-status index.
    /// - Complexity: O(s log h) for s statuses and h entries.
    func sentCount(_ target: String, within window: SentWindow, statuses: [String], ledger: LedgerIndex, zone: Zone, now: Int) -> Int {
        let scope: LedgerScope = bundle.types.contains(target) ? .type(target) : .category(target)
        let wanted = Set(statuses.compactMap(HistoryEntry.Status.init(rawValue:)))
        return ledger.count(scope, statuses: wanted, in: zone.window(Self.window(window), containing: now))
    }

    /// `sent(target, since(instant))`: the entries of a type or category delivering after
    /// `instant` — those already sent and those scheduled ahead, so a bound per lapse holds for
    /// notifications planned in advance — counted like `sent(target, window)`, or by status
    /// when `statuses` is given. `now` is unused: the window ends with the ledger.
    /// - Complexity: O(log h) (O(s log h) with s statuses) for h entries.
    func sentCount(_ target: String, after instant: Int, statuses: [String]?, ledger: LedgerIndex, now: Int) -> Int {
        guard instant < Int.max - 1 else { return 0 }
        let range = (instant + 1) ..< Int.max
        let scope: LedgerScope = bundle.types.contains(target) ? .type(target) : .category(target)
        guard let statuses else { return ledger.count(scope, in: range) }
        return ledger.count(scope, statuses: Set(statuses.compactMap(HistoryEntry.Status.init(rawValue:))), in: range)
    }

    static func window(_ window: SentWindow) -> Window {
        switch window {
        case .day: .day
        case .week: .week
        case .calendarWeek: .calendarWeek
        case .month: .month
        case .lifetime: .lifetime
        case .duration(let d): .rolling(d)
        }
    }

    func categoryEnabled(_ name: String, categories: [String: Bool]) -> Bool {
        categories[name] ?? bundle.categories[name]?.defaultOn ?? true
    }

    func channelEnabled(_ name: String, channels: [String: Bool]) -> Bool {
        guard let channel = bundle.channels[name], channel.toggle else { return true }
        return channels[name] ?? channel.defaultOn
    }

    /// The effective preferences. When the request's are invalid their problems are added to
    /// `errors` and the policy's defaults in UTC stand in, so that the rest of the request
    /// can still be checked (a decision is then never made).
    package func effectivePreferences(_ input: PreferencesInput, errors: inout [RequestError]) -> EffectivePreferences {
        if !input.app.isEmpty { checkDeclaredPreferences(input, errors: &errors) }
        if let stated = input.maxPerDay, let allowed = core.maxPerDayAllowed, !allowed.contains(.int(stated)) {
            errors.append(Self.notAllowed("prefs.maxPerDay", shown: "\(stated)", allowed: allowed))
        }
        // A request that states none of the scalars (the toggles are read where they are)
        // takes the policy's defaults, resolved once per engine.
        if input.timezone == nil, input.pausedAll == nil, input.reminderTime == nil, input.quietHours == nil,
           input.maxPerDay == nil, let defaults = core.defaultPreferences {
            return defaults
        }
        let defaults = core.bundle.defaults
        let zoneName = input.timezone ?? defaults.timezone
        let known = zoneName == defaults.timezone ? core.defaultZone : nil
        guard let zone = known ?? Zone(identifier: zoneName) else {
            errors.append(RequestError(path: input.timezone == nil ? "defaults.timezone" : "prefs.timezone",
                                       message: "unknown time zone `\(zoneName)`"))
            return EffectivePreferences(zone: .utc, pausedAll: defaults.pausedAll, reminderTime: defaults.reminderTime,
                                        quietHours: defaults.quietHours, maxPerDay: defaults.maxPerDay)
        }
        var quiet = defaults.quietHours
        switch input.quietHours {
        case nil: break
        case .off?: quiet = nil
        case .window(let start, let end)?: quiet = QuietHoursWindow(start: start, end: end)
        }
        return EffectivePreferences(
            zone: zone, pausedAll: input.pausedAll ?? defaults.pausedAll,
            reminderTime: input.reminderTime ?? defaults.reminderTime, quietHours: quiet,
            maxPerDay: input.maxPerDay ?? defaults.maxPerDay)
    }
}
