internal import HeraldEngine
import HeraldPolicy

extension Decision.Presentation {
    /// The members `Decision.json()` writes into `notification`, after `badge`.
    func jsonMembers() -> [JSON.Member] {
        var members: [JSON.Member] = []
        if let sound { members.append(JSON.Member("sound", .string(sound))) }
        if let actions {
            members.append(JSON.Member("actions", .array(actions.map { ["id": .string($0.id), "title": .string($0.title)] })))
        }
        if let osChannel { members.append(JSON.Member("osChannel", .string(osChannel))) }
        if let relevance { members.append(JSON.Member("relevance", .double(relevance))) }
        if !payload.isEmpty {
            members.append(JSON.Member("payload", .object(payload.map { JSON.Member($0.key, .string($0.value)) })))
        }
        if let categoryTitle { members.append(JSON.Member("categoryTitle", .string(categoryTitle))) }
        if !badges.isEmpty {
            members.append(JSON.Member("badges", .object(badges.map { JSON.Member($0.tab, .int($0.count)) })))
        }
        if let foreground { members.append(JSON.Member("foreground", .string(foreground))) }
        if !batchParams.isEmpty {
            members.append(JSON.Member("batchParams", .object(batchParams.map { JSON.Member($0.name, Self.json(of: $0.value)) })))
        }
        return members
    }

    /// A param's value as a request writes it: numbers and booleans as JSON, instants in
    /// RFC 3339 UTC, dates `YYYY-MM-DD`, times `HH:MM`, lists as arrays.
    static func json(of value: Value) -> JSON {
        switch value {
        case .bool(let b): return .bool(b)
        case .int(let i), .duration(let i): return .int(i)
        case .string(let s): return .string(s)
        case .instant(let t): return .string(ContractTime.format(t))
        case .time(let t):
            func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return .string(pad(t / 3600) + ":" + pad(t % 3600 / 60))
        case .date(let d): return .string(CivilDate(days: d).description)
        case .weekday(let w): return .string(["mon", "tue", "wed", "thu", "fri", "sat", "sun"][max(0, min(6, w - 1))])
        case .list(let items): return .array(items.map(json(of:)))
        case .map(let entries): return .object(entries.keys.sorted().map { JSON.Member($0, json(of: entries[$0]!)) })
        case .null: return .null
        }
    }
}
