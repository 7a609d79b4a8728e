public import HeraldContract
internal import HeraldEngine
internal import HeraldPolicy

/// What a simulation found: deliveries per user per day, suppressions by reason, batches and
/// digests, quiet-hours deferrals, the caps and rules that fired, and the sample users' weeks.
public struct SimulationResult: Sendable {
    public let scenario: String
    public let scenarioPath: String
    public let policyName: String
    public let policyDigest: String
    public let users: Int
    public let days: Int
    public let seed: UInt64
    public let start: Int
    /// Deliveries of every user on every day, user-major (`users × days`).
    public let userDays: [Int]
    /// How many user-days had n deliveries, for n = 0 … max.
    public let histogram: [Int]
    public let decisions: Int
    public let deliveries: Int
    public let actions: [String: Int]
    public let suppressions: [String: Int]
    public let scheduleReasons: [String: Int]
    public let rules: [String: Int]
    public let caps: [String: Int]
    public let byType: [String: Int]
    public let byCategory: [String: Int]
    public let batches: Int
    public let digests: Int
    public let batchedMembers: Int
    public let quietHoursDeferrals: Int
    public let opened: Int
    public let dismissed: Int
    public let plans: Int
    public let pendingAtEnd: Int
    public let errors: [String: Int]
    public let errorMessages: [String: String]
    public let samples: [Sample]
    /// Categories in the catalog's order (the picture's colours).
    public let categories: [String]

    /// A sample user's week for the picture.
    public struct Sample: Sendable {
        public var user: String
        public var zone: String
        public var quietHours: [Int]?
        public var perDay: [Int]
        public var marks: [Mark]
    }

    /// Outcomes of a run of consecutive users, merged in user order.
    struct Partial: Sendable {
        var days: Int
        var outcome: UserOutcome
        var userDays: [Int] = []
        var samples: [Sample] = []

        init(days: Int) {
            self.days = days
            outcome = UserOutcome(days: days)
        }

        mutating func add(_ user: UserOutcome, sample: Bool) {
            userDays += user.perDay
            if sample { samples.append(Sample(user: user.userID, zone: user.zone, quietHours: user.quietHours, perDay: user.perDay, marks: user.marks)) }
            // In place: a copy of `outcome` would copy each of its maps on the first write.
            outcome.deliveries += user.deliveries
            outcome.decisions += user.decisions
            outcome.batches += user.batches
            outcome.digests += user.digests
            outcome.batchedMembers += user.batchedMembers
            outcome.opened += user.opened
            outcome.dismissed += user.dismissed
            outcome.plans += user.plans
            outcome.pendingAtEnd += user.pendingAtEnd
            outcome.tallies.add(user.tallies)
            for (k, v) in user.byCategory { outcome.byCategory[k, default: 0] += v }
            for (k, v) in user.errors {
                let message = outcome.errors[k]?.message ?? v.message
                outcome.errors[k] = ((outcome.errors[k]?.count ?? 0) + v.count, message)
            }
        }

        mutating func merge(_ other: Partial) {
            var copy = other.outcome
            copy.marks = []
            add(copy, sample: false)
            userDays.removeLast(other.days)
            userDays += other.userDays
            samples += other.samples
        }
    }

    init(scenario: Scenario, policy: PolicyBundle, users: Int, days: Int, seed: UInt64, partial: Partial) {
        self.scenario = scenario.name
        scenarioPath = scenario.path
        policyName = policy.name
        policyDigest = policy.digest
        self.users = users
        self.days = days
        self.seed = seed
        start = scenario.start
        userDays = partial.userDays
        var histogram = Array(repeating: 0, count: (partial.userDays.max() ?? 0) + 1)
        for n in partial.userDays { histogram[n] += 1 }
        self.histogram = histogram
        let o = partial.outcome
        decisions = o.decisions
        deliveries = o.deliveries
        let tally = Tally(o.tallies)
        actions = tally.actions
        suppressions = tally.suppressions
        scheduleReasons = tally.scheduleReasons
        rules = tally.rules
        caps = tally.caps
        byType = tally.byType
        byCategory = o.byCategory
        batches = o.batches
        digests = o.digests
        batchedMembers = o.batchedMembers
        quietHoursDeferrals = tally.quietHoursDeferrals
        opened = o.opened
        dismissed = o.dismissed
        plans = o.plans
        pendingAtEnd = o.pendingAtEnd
        errors = o.errors.mapValues(\.count)
        errorMessages = o.errors.mapValues(\.message)
        samples = partial.samples
        categories = policy.categories.names
    }

    // MARK: Figures

    /// The nearest-rank percentile `p` (0…100) of deliveries per user per day.
    public func percentile(_ p: Int) -> Int {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return 0 }
        let rank = max(1, (p * total + 99) / 100)
        var seen = 0
        for (n, count) in histogram.enumerated() {
            seen += count
            if seen >= rank { return n }
        }
        return histogram.count - 1
    }

    public var maxPerUserDay: Int { histogram.count - 1 }

    /// Mean deliveries per user per day, in hundredths (integers keep the JSON stable).
    public var meanPerUserDayHundredths: Int {
        userDays.isEmpty ? 0 : (userDays.reduce(0, +) * 100 + userDays.count / 2) / userDays.count
    }

    /// One user's deliveries on each day.
    public func week(ofUser index: Int) -> ArraySlice<Int> { userDays[index * days ..< (index + 1) * days] }

    // MARK: JSON

    static func sortedObject(_ map: [String: Int]) -> JSON {
        .object(map.keys.sorted().map { JSON.Member($0, .int(map[$0]!)) })
    }

    static func hundredths(_ n: Int) -> String {
        let sign = n < 0 ? "-" : ""
        let a = abs(n)
        return "\(sign)\(a / 100).\(a % 100 < 10 ? "0" : "")\(a % 100)"
    }

    /// The result as JSON with keys in a fixed order and every map sorted, so the same run gives
    /// the same bytes.
    public func json() -> JSON {
        [
            "scenario": .string(scenario),
            "policy": ["name": .string(policyName), "digest": .string(policyDigest)],
            "users": .int(users),
            "days": .int(days),
            "seed": .string(String(seed)),
            "start": .string(CivilDate(days: start).description),
            "decisions": .int(decisions),
            "actions": Self.sortedObject(actions),
            "deliveries": .int(deliveries),
            "deliveriesPerUserPerDay": [
                "mean": .string(Self.hundredths(meanPerUserDayHundredths)),
                "p50": .int(percentile(50)), "p95": .int(percentile(95)), "max": .int(maxPerUserDay),
                "histogram": .array(histogram.map(JSON.int)),
            ],
            "suppressions": Self.sortedObject(suppressions),
            "scheduleReasons": Self.sortedObject(scheduleReasons),
            "quietHoursDeferrals": .int(quietHoursDeferrals),
            "batches": ["batches": .int(batches), "digests": .int(digests), "members": .int(batchedMembers)],
            "caps": Self.sortedObject(caps),
            "rules": Self.sortedObject(rules),
            "byType": Self.sortedObject(byType),
            "byCategory": Self.sortedObject(byCategory),
            "behaviour": ["opened": .int(opened), "dismissed": .int(dismissed)],
            "plans": .int(plans),
            "pendingAtEnd": .int(pendingAtEnd),
            "errors": .object(errors.keys.sorted().map { JSON.Member($0, ["count": .int(errors[$0]!), "first": .string(errorMessages[$0]!)]) }),
            "samples": .array(samples.map { sample in
                [
                    "user": .string(sample.user), "zone": .string(sample.zone),
                    "quietHours": sample.quietHours.map { .array($0.map { .string(hhmm($0)) }) } ?? .null,
                    "perDay": .array(sample.perDay.map(JSON.int)),
                    "marks": .array(sample.marks.map { mark in
                        var members: [JSON.Member] = [
                            JSON.Member("at", .string(RFC3339.format(mark.at, offsetSeconds: 0))),
                            JSON.Member("day", .int(mark.day + 1)),
                            JSON.Member("local", .string(hhmm(mark.minute))),
                            JSON.Member("kind", .string(mark.kind.rawValue)),
                            JSON.Member("type", .string(mark.type)),
                            JSON.Member("category", .string(mark.category)),
                            JSON.Member("reason", .string(mark.reason)),
                            JSON.Member("note", .string(mark.note)),
                        ]
                        if let reaction = mark.reaction { members.append(JSON.Member("reaction", .string(reaction))) }
                        return .object(members)
                    }),
                ]
            }),
        ]
    }
}
