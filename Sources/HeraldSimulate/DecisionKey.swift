import HeraldEngine

/// What a decision is counted under in the summary: its action, type, reason, the rule that
/// decided and the cap that acted.
///
/// Counting a decision is one lookup of this key. Its strings are the engine's own (read from
/// the bundle's tables), so equal keys compare by identity; the hash reads only their lengths
/// (a run meets a few dozen distinct keys, and `==` settles a shared hash), not their bytes as
/// `String`'s hash would. The summary's text keys (`"suppress rate_limited · rule"`) are
/// made once per distinct key (`Tally`), not once per decision.
struct DecisionKey: Hashable, Sendable {
    var action: Decision.Action
    var type: String
    var reason: String
    var rule: String?
    var cap: String?

    init(_ decision: Decision) {
        action = decision.action
        type = decision.type
        reason = decision.reason
        rule = decision.rule?.id
        cap = decision.cap
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(type.utf8.count &* 64 &+ reason.utf8.count)
        hasher.combine((rule?.utf8.count ?? -1) &* 64 &+ (cap?.utf8.count ?? -1))
    }
}

/// The summary's string-keyed counts, made from decision tallies.
struct Tally {
    var actions: [String: Int] = [:]
    var suppressions: [String: Int] = [:]
    var scheduleReasons: [String: Int] = [:]
    var rules: [String: Int] = [:]
    var caps: [String: Int] = [:]
    var byType: [String: Int] = [:]
    var quietHoursDeferrals = 0

    init(_ tallies: [DecisionKey: Int]) {
        for (key, n) in tallies {
            let action = key.action.rawValue
            actions[action, default: 0] += n
            byType[key.type, default: 0] += n
            switch key.action {
            case .suppress: suppressions[key.reason, default: 0] += n
            case .schedule:
                scheduleReasons[key.reason, default: 0] += n
                if key.reason == "quiet_hours" { quietHoursDeferrals += n }
            case .batch: break
            }
            if let rule = key.rule { rules["\(action) \(key.reason) · \(rule)", default: 0] += n }
            if let cap = key.cap { caps["\(cap) → \(action) \(key.reason)", default: 0] += n }
        }
    }
}
