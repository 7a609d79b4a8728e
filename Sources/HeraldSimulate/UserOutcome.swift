import HeraldContract
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
    /// Decisions by what the summary counts them under; its string-keyed maps (actions,
    /// reasons, rules, caps, types) are made from these once, when the run is summarised.
    var tallies = DecisionTally()
    var byCategory: [String: Int] = [:]
    var batches = 0
    var digests = 0
    var batchedMembers = 0
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
        tallies.add(DecisionKey(decision))
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
