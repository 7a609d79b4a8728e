public import HeraldEngine
extension DecisionRequest {
    /// The request in the contract's shape (instants in UTC); `DecisionRequest(json:)` reads
    /// it back to an equal value. Used by tools that record or replay requests.
    public func json() -> JSON {
        var members: [JSON.Member] = [
            JSON.Member("type", .string(type)),
            JSON.Member("at", .string(ContractTime.format(at))),
            JSON.Member("now", .string(ContractTime.format(now))),
            JSON.Member("user", user),
            JSON.Member("prefs", prefs.json(appPrefs: appPrefs)),
            JSON.Member("permission", .string(permission.rawValue)),
            JSON.Member("state", state),
            JSON.Member("params", params),
        ]
        if let subject { members.append(JSON.Member("subject", .string(subject))) }
        members.append(JSON.Member("history", .array(history.map { $0.json() })))
        return .object(members)
    }
}

extension PreferencesInput {
    /// The stated preferences only; unstated ones stay absent so the policy defaults apply.
    /// `appPrefs` are the catalog's own as a request gave them (`app`'s converted values are
    /// written where `appPrefs` has none).
    public func json(appPrefs: [String: JSON] = [:]) -> JSON {
        var members: [JSON.Member] = []
        func toggles(_ map: [String: Bool]) -> JSON {
            .object(map.keys.sorted().map { JSON.Member($0, .bool(map[$0]!)) })
        }
        if let timezone { members.append(JSON.Member("timezone", .string(timezone))) }
        if let pausedAll { members.append(JSON.Member("pausedAll", .bool(pausedAll))) }
        if !categories.isEmpty { members.append(JSON.Member("categories", toggles(categories))) }
        if !channels.isEmpty { members.append(JSON.Member("channels", toggles(channels))) }
        if !types.isEmpty { members.append(JSON.Member("types", toggles(types))) }
        switch quietHours {
        case nil: break
        case .off: members.append(JSON.Member("quietHours", .null))
        case .window(let start, let end):
            members.append(JSON.Member("quietHours", [
                "start": .string(ContractTime.formatTimeOfDay(start)),
                "end": .string(ContractTime.formatTimeOfDay(end)),
            ]))
        }
        if let reminderTime {
            members.append(JSON.Member("reminderTime", .string(ContractTime.formatTimeOfDay(reminderTime))))
        }
        if let trainingDays {
            let names = trainingDays.compactMap { (1...7).contains($0) ? Self.weekdayNames[$0 - 1] : nil }
            members.append(JSON.Member("trainingDays", .array(names.map(JSON.string))))
        }
        if let maxPerDay { members.append(JSON.Member("maxPerDay", .int(maxPerDay))) }
        if let muted { members.append(JSON.Member("muted", .array(muted.map(JSON.string)))) }
        for name in Set(app.keys).union(appPrefs.keys).sorted() {
            members.append(JSON.Member(name, appPrefs[name] ?? Decision.Presentation.json(of: app[name]!)))
        }
        return .object(members)
    }
}

extension HistoryEntry {
    /// The entry as a contract object (`batch` carries `batchKey`).
    public func json() -> JSON {
        var members = [JSON.Member("key", .string(key)), JSON.Member("type", .string(type))]
        if let subject { members.append(JSON.Member("subject", .string(subject))) }
        if let channel { members.append(JSON.Member("channel", .string(channel))) }
        members.append(JSON.Member("deliverAt", .string(ContractTime.format(deliverAt))))
        members.append(JSON.Member("status", .string(status.rawValue)))
        if let batchKey { members.append(JSON.Member("batch", .string(batchKey))) }
        return .object(members)
    }
}
