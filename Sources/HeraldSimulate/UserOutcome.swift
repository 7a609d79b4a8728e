import HeraldEngine

/// What one user's run produced: counts that add up across users, and (for sample users) the
/// marks of the week picture.
struct UserOutcome: Sendable {
    var userID = ""
    var zone = ""
    var quietHours: [Int]?
    /// Deliveries on each local day.
    var perDay: [Int]
    var deliveries = 0
    var decisions = 0
    var actions: [String: Int] = [:]
    var suppressions: [String: Int] = [:]
    var scheduleReasons: [String: Int] = [:]
    var rules: [String: Int] = [:]
    var caps: [String: Int] = [:]
    var byType: [String: Int] = [:]
    var byCategory: [String: Int] = [:]
    var batches = 0
    var digests = 0
    var batchedMembers = 0
    var quietHoursDeferrals = 0
    var opened = 0
    var dismissed = 0
    var plans = 0
    var pendingAtEnd = 0
    /// Request errors by what made the request, with the first message.
    var errors: [String: (count: Int, message: String)] = [:]
    var marks: [Mark] = []

    init(days: Int) { perDay = Array(repeating: 0, count: days) }

    mutating func count(_ decision: Decision) {
        decisions += 1
        actions[decision.action.rawValue, default: 0] += 1
        byType[decision.type, default: 0] += 1
        switch decision.action {
        case .suppress: suppressions[decision.reason, default: 0] += 1
        case .schedule:
            scheduleReasons[decision.reason, default: 0] += 1
            if decision.reason == "quiet_hours" { quietHoursDeferrals += 1 }
        case .batch: break
        }
        if let rule = decision.rule { rules["\(decision.action.rawValue) \(decision.reason) · \(rule.id)", default: 0] += 1 }
        if let cap = decision.cap { caps["\(cap) → \(decision.action.rawValue) \(decision.reason)", default: 0] += 1 }
    }

    mutating func flushed(isDigest: Bool, members: Int) {
        if isDigest { digests += 1 } else { batches += 1 }
        batchedMembers += members
    }

    mutating func noteError(_ source: String, _ message: String) {
        let first = errors[source]?.message ?? message
        errors[source] = ((errors[source]?.count ?? 0) + 1, first)
    }
}

/// One mark of the week picture: a notification at its local time on its local day.
public struct Mark: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Delivered on its own (at its delivery time).
        case delivered
        /// Suppressed (drawn at its trigger time).
        case suppressed
        /// Held for a batch or digest (drawn at its trigger time).
        case batched
        /// A batch's summary, delivered at its flush time.
        case batch
        /// A digest, delivered at its flush time.
        case digest
    }
    public var at: Int
    /// 0-based simulated day.
    public var day: Int
    /// Local minute of the day.
    public var minute: Int
    public var kind: Kind
    public var type: String
    public var category: String
    public var reason: String
    public var note: String
    public var reaction: String?
}
