public import HeraldContract
internal import HeraldEngine

/// What changes between two policies on the same seeded scenario: deliveries per user per day,
/// suppressions by reason, the rules and caps whose counts moved, and the users whose week
/// changed most. Both runs draw the same users and triggers (same file, same seed), so every
/// difference comes from the policies.
public struct SimulationDiff: Sendable {
    public let a: SimulationResult
    public let b: SimulationResult

    /// A count in both runs.
    public struct Change: Sendable, Equatable {
        public var name: String
        public var a: Int
        public var b: Int
        public var delta: Int { b - a }
    }

    /// A user whose week differs, with both weeks.
    public struct UserChange: Sendable, Equatable {
        public var user: String
        public var a: [Int]
        public var b: [Int]
        /// The sum over days of |b − a|.
        public var distance: Int
    }

    public init(a: SimulationResult, b: SimulationResult) {
        self.a = a
        self.b = b
    }

    static func changes(_ x: [String: Int], _ y: [String: Int], onlyMoved: Bool) -> [Change] {
        Set(x.keys).union(y.keys).sorted().map { Change(name: $0, a: x[$0] ?? 0, b: y[$0] ?? 0) }
            .filter { !onlyMoved || $0.delta != 0 }
            .sorted { (abs($0.delta), $1.name) > (abs($1.delta), $0.name) }
    }

    public var suppressions: [Change] { Self.changes(a.suppressions, b.suppressions, onlyMoved: false) }
    public var caps: [Change] { Self.changes(a.caps, b.caps, onlyMoved: true) }
    public var rules: [Change] { Self.changes(a.rules, b.rules, onlyMoved: true) }
    public var actions: [Change] { Self.changes(a.actions, b.actions, onlyMoved: false) }
    public var categories: [Change] { Self.changes(a.byCategory, b.byCategory, onlyMoved: false) }

    public var figures: [Change] {
        [
            Change(name: "deliveries", a: a.deliveries, b: b.deliveries),
            Change(name: "mean per user per day (×100)", a: a.meanPerUserDayHundredths, b: b.meanPerUserDayHundredths),
            Change(name: "p50 per user per day", a: a.percentile(50), b: b.percentile(50)),
            Change(name: "p95 per user per day", a: a.percentile(95), b: b.percentile(95)),
            Change(name: "max per user per day", a: a.maxPerUserDay, b: b.maxPerUserDay),
            Change(name: "batches", a: a.batches, b: b.batches),
            Change(name: "digests", a: a.digests, b: b.digests),
            Change(name: "held for batches/digests", a: a.batchedMembers, b: b.batchedMembers),
            Change(name: "quiet-hours deferrals", a: a.quietHoursDeferrals, b: b.quietHoursDeferrals),
        ]
    }

    /// The users whose weeks differ most (largest distance first, then user order).
    public func users(limit: Int = 10) -> [UserChange] {
        let count = min(a.users, b.users)
        var result: [UserChange] = []
        for index in 0..<count {
            let x = Array(a.week(ofUser: index)), y = Array(b.week(ofUser: index))
            let distance = zip(x, y).reduce(0) { $0 + abs($1.0 - $1.1) }
            if distance > 0 { result.append(UserChange(user: "u\(index + 1)", a: x, b: y, distance: distance)) }
        }
        return Array(result.enumerated().sorted { ($0.element.distance, $1.offset) > ($1.element.distance, $0.offset) }.map(\.element).prefix(limit))
    }

    /// How many users' weeks differ at all.
    public var usersChanged: Int {
        (0..<min(a.users, b.users)).filter { a.week(ofUser: $0) != b.week(ofUser: $0) }.count
    }

    // MARK: Output

    static func signed(_ n: Int) -> String { n > 0 ? "+\(n)" : "\(n)" }

    public func text() -> String {
        var out = "A: \(a.policyName) (\(a.policyDigest.prefix(12)))\nB: \(b.policyName) (\(b.policyDigest.prefix(12)))\n"
        out += "scenario \(a.scenario): \(a.users) users × \(a.days) days, seed \(a.seed)\n\n"
        out += "deliveries per user per day  A: mean \(SimulationResult.hundredths(a.meanPerUserDayHundredths)) p50 \(a.percentile(50)) p95 \(a.percentile(95)) max \(a.maxPerUserDay)"
        out += "  B: mean \(SimulationResult.hundredths(b.meanPerUserDayHundredths)) p50 \(b.percentile(50)) p95 \(b.percentile(95)) max \(b.maxPerUserDay)\n"
        out += Self.table("figures", figures.filter { !$0.name.hasPrefix("mean") })
        out += Self.table("decisions by action", actions)
        out += Self.table("suppressions by reason", suppressions)
        out += Self.table("caps whose counts moved", caps)
        out += Self.table("rules whose counts moved", rules)
        out += "\nusers whose week changed: \(usersChanged) of \(min(a.users, b.users)); most changed (deliveries per day, A → B)\n"
        let top = users()
        if top.isEmpty { out += "  none\n" }
        for user in top {
            out += "  \(user.user)  " + user.a.map(String.init).joined(separator: " ") + "  →  " + user.b.map(String.init).joined(separator: " ") + "  (Δ \(user.distance))\n"
        }
        return out
    }

    static func table(_ title: String, _ rows: [Change]) -> String {
        var out = "\n\(title)\n"
        if rows.isEmpty { return out + "  none\n" }
        let width = max(rows.map { String($0.a).count }.max() ?? 1, rows.map { String($0.b).count }.max() ?? 1)
        func pad(_ s: String) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
        for row in rows {
            let delta = Self.signed(row.delta)
            out += "  \(pad(String(row.a))) → \(pad(String(row.b)))  \(String(repeating: " ", count: max(0, width + 1 - delta.count)))\(delta)  \(row.name)\n"
        }
        return out
    }

    public func json() -> JSON {
        func list(_ rows: [Change]) -> JSON {
            .array(rows.map { ["name": .string($0.name), "a": .int($0.a), "b": .int($0.b), "delta": .int($0.delta)] })
        }
        func side(_ r: SimulationResult) -> JSON {
            ["policy": ["name": .string(r.policyName), "digest": .string(r.policyDigest)],
             "deliveriesPerUserPerDay": ["mean": .string(SimulationResult.hundredths(r.meanPerUserDayHundredths)), "p50": .int(r.percentile(50)),
                                         "p95": .int(r.percentile(95)), "max": .int(r.maxPerUserDay), "histogram": .array(r.histogram.map(JSON.int))]]
        }
        return [
            "scenario": .string(a.scenario), "users": .int(a.users), "days": .int(a.days), "seed": .string(String(a.seed)),
            "a": side(a), "b": side(b),
            "figures": list(figures), "actions": list(actions), "suppressions": list(suppressions),
            "caps": list(caps), "rules": list(rules), "usersChanged": .int(usersChanged),
            "users": .array(users().map { ["user": .string($0.user), "a": .array($0.a.map(JSON.int)), "b": .array($0.b.map(JSON.int)), "distance": .int($0.distance)] }),
        ]
    }

    public func html() -> String {
        var out = WeekPicture.head(title: "Herald diff: \(a.policyName) → \(b.policyName), \(a.scenario)")
        out += "<h1>\(WeekPicture.escape(a.policyName)) → \(WeekPicture.escape(b.policyName))</h1>\n"
        out += "<p class=\"meta\">scenario \(WeekPicture.escape(a.scenario)): \(a.users) users × \(a.days) days, seed \(a.seed); A digest \(a.policyDigest.prefix(12)), B digest \(b.policyDigest.prefix(12))</p>\n"
        out += "<div class=\"grid\"><div><h2>A: deliveries per user per day</h2>\n\(WeekPicture.histogram(a.histogram))</div>"
        out += "<div><h2>B: deliveries per user per day</h2>\n\(WeekPicture.histogram(b.histogram))</div></div>\n"
        out += "<div class=\"grid\">" + Self.htmlTable("Figures", figures) + Self.htmlTable("Decisions by action", actions)
            + Self.htmlTable("Suppressions by reason", suppressions) + "</div>\n"
        out += "<div class=\"grid\">" + Self.htmlTable("Caps whose counts moved", caps) + Self.htmlTable("Rules whose counts moved", rules) + "</div>\n"
        out += "<h2>Users whose week changed most (\(usersChanged) of \(min(a.users, b.users)) changed)</h2>\n<table>\n<tr><th>user</th><th>A per day</th><th>B per day</th><th>Δ</th></tr>\n"
        for user in users() {
            out += "<tr><td>\(user.user)</td><td>\(user.a.map(String.init).joined(separator: " "))</td><td>\(user.b.map(String.init).joined(separator: " "))</td><td class=\"n\">\(user.distance)</td></tr>\n"
        }
        out += "</table>\n"
        out += "<h2>Sample users: A</h2>\n" + WeekPicture.legend(a.categories)
        for sample in a.samples { out += WeekPicture.week(sample, result: a) }
        out += "<h2>Sample users: B</h2>\n"
        for sample in b.samples { out += WeekPicture.week(sample, result: b) }
        return out + "</body>\n</html>\n"
    }

    static func htmlTable(_ title: String, _ rows: [Change]) -> String {
        var out = "<div><h3>\(WeekPicture.escape(title))</h3>\n<table>\n<tr><th>name</th><th>A</th><th>B</th><th>Δ</th></tr>\n"
        if rows.isEmpty { out += "<tr><td colspan=\"4\">none</td></tr>\n" }
        for row in rows {
            let css = row.delta > 0 ? " up" : row.delta < 0 ? " down" : ""
            out += "<tr><td>\(WeekPicture.escape(row.name))</td><td class=\"n\">\(row.a)</td><td class=\"n\">\(row.b)</td><td class=\"n\(css)\">\(signed(row.delta))</td></tr>\n"
        }
        return out + "</table></div>\n"
    }
}
