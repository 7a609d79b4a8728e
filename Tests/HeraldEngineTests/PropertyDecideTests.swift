import HeraldContract
import HeraldEngine
import Testing

/// Seeded random request sequences on Tests/Fixtures/engine/basic, each decision fed back
/// as history for the next.
@Suite struct PropertyDecideTests {
    typealias S = DecideSupport

    static let zones = ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia"]
    static let types = ["cooled", "morning", "otp", "tip", "tip2", "daily", "quiet-strict", "digest-me", "news-item", "session"]
    /// Types that bypass quiet hours.
    static let bypass: Set<String> = ["otp"]

    struct Step {
        var request: DecisionRequest
        var decision: Decision
    }

    static func clock(_ minutes: Int) -> String {
        (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }

    /// One random sequence: a user, a zone, quiet hours, and up to 8 triggers over two days.
    static func sequence(seed: UInt64, engine: Engine) -> [Step] {
        var rng = SplitMix64(seed: seed)
        let zone = zones.randomElement(using: &rng)!
        let start = Int.random(in: 0 ..< 1440, using: &rng) / 15 * 15
        let end = Int.random(in: 0 ..< 1440, using: &rng) / 15 * 15
        // An empty window (start == end) is a request error (H0257); it is drawn as no quiet hours.
        let quietHours: JSON = start == end ? .null : ["start": .string(clock(start)), "end": .string(clock(end))]
        let prefs: JSON = ["timezone": .string(zone), "quietHours": quietHours,
                           "maxPerDay": .int(Int.random(in: 0 ... 4, using: &rng))]
        let base = Int.random(in: 1_767_225_600 ..< 1_798_761_600, using: &rng)  // 2026
        var history: [JSON] = []
        var steps: [Step] = []
        var t = base
        for _ in 0 ..< Int.random(in: 1 ... 8, using: &rng) {
            t += Int.random(in: 0 ..< 6 * 3600, using: &rng)
            let type = types.randomElement(using: &rng)!
            let at = RFC3339.format(t, offsetSeconds: 0)
            var params: JSON = [:]
            switch type {
            case "daily": params = ["count": .int(Int.random(in: 1 ... 3, using: &rng))]
            case "news-item": params = ["id": .string("n\(Int.random(in: 0 ..< 3, using: &rng))")]
            case "session": params = ["at": .string(RFC3339.format(t + Int.random(in: 0 ..< 86_400, using: &rng), offsetSeconds: 0))]
            default: break
            }
            let request = S.request(type, at: at, prefs: prefs, params: params, history: history)
            let decision = S.decide(request, engine: engine)
            steps.append(Step(request: request, decision: decision))
            if decision.action != .suppress, let key = decision.key, let deliverAt = decision.deliverAt {
                var entry: [JSON.Member] = [
                    .init("key", .string(key)), .init("type", .string(type)),
                    .init("deliverAt", .string(RFC3339.format(deliverAt, offsetSeconds: 0))), .init("status", "scheduled"),
                ]
                if let batch = decision.batch { entry.append(.init("batch", .string(batch.key))) }
                history.append(.object(entry))
            }
        }
        return steps
    }

    static func quiet(_ seconds: Int, start: Int, end: Int) -> Bool {
        let a = start * 60, b = end * 60
        if a == b { return false }
        return a < b ? (a <= seconds && seconds < b) : (seconds >= a || seconds < b)
    }

    @Test func quietHoursHoldAndHardCapsHoldAndOutputIsDeterministic() throws {
        let engine = S.engine()
        var decided = 0
        for seed in UInt64(1) ... 1500 {
            let steps = Self.sequence(seed: seed, engine: engine)
            for step in steps {
                decided += 1
                let d = step.decision
                // Same inputs → byte-identical JSON.
                let again = S.decide(step.request, engine: engine)
                #expect(again.json().serialized() == d.json().serialized(), "seed \(seed)")
                guard d.action == .schedule, let at = d.deliverAt else { continue }
                // No delivery inside quiet hours unless the type bypasses them.
                let prefs = step.request.prefs
                if case .window(let s, let e)? = prefs.quietHours, !Self.bypass.contains(d.type) {
                    let zone = try #require(Zone(identifier: prefs.timezone ?? "UTC"))
                    let local = zone.localDateTime(of: at).secondOfDay
                    #expect(!Self.quiet(local, start: s / 60, end: e / 60), "seed \(seed): \(d.type) at \(RFC3339.format(at, in: zone))")
                }
                // The burst cap (1 per minute, security exempt) holds against what was fed back.
                if !["otp", "sms-code"].contains(d.type) {
                    let others = step.request.history.filter { $0.status == .scheduled && abs($0.deliverAt - at) < 60 && $0.batchKey == nil }
                    #expect(others.isEmpty, "seed \(seed): burst at \(at)")
                }
            }
            // Hard caps over the final ledger: global 10 per local day, `daily` once a day.
            guard let last = steps.last else { continue }
            var ledger = last.request.history
            if let entry = last.decision.historyEntry() { ledger.append(entry) }
            let zone = try #require(Zone(identifier: last.request.prefs.timezone ?? "UTC"))
            var perDay: [Int: Set<String>] = [:]
            var dailyPerDay: [Int: Int] = [:]
            for entry in ledger {
                let day = zone.localDate(of: entry.deliverAt)
                perDay[day, default: []].insert(entry.batchKey ?? entry.key + "@\(entry.deliverAt)")
                if entry.type == "daily" { dailyPerDay[day, default: 0] += 1 }
            }
            #expect(perDay.values.allSatisfy { $0.count <= 10 }, "seed \(seed)")
            #expect(dailyPerDay.values.allSatisfy { $0 <= 1 }, "seed \(seed)")
        }
        #expect(decided > 5000)
    }

    @Test func reconcileTwiceIsANoOp() throws {
        let engine = S.engine()
        for seed in UInt64(1) ... 1000 {
            var rng = SplitMix64(seed: seed &* 7919)
            let count = Int.random(in: 1 ... 5, using: &rng)
            var candidates: [DecisionRequest] = []
            for _ in 0 ..< count {
                let type = ["cooled", "morning", "otp", "tip", "tip2", "digest-me"].randomElement(using: &rng)!
                let t = 1_773_144_000 + Int.random(in: 0 ..< 2 * 86_400, using: &rng)
                candidates.append(S.request(type, at: RFC3339.format(t, offsetSeconds: 0), now: S.t0))
            }
            let plan = try engine.plan(candidates, now: S.instant(S.t0), horizon: 7 * 86_400).get()
            // Random pending: some of the plan's deliveries (some moved) and strangers.
            var pending: [PendingEntry] = []
            for d in plan.deliveries where Bool.random(using: &rng) {
                var entry = try #require(d.pendingEntry())
                if Bool.random(using: &rng) { entry.deliverAt += 60 }
                pending.append(entry)
            }
            if Bool.random(using: &rng) { pending.append(PendingEntry(key: "stale-\(seed)", type: "otp", deliverAt: 0)) }
            let first = engine.reconcile(plan, pending: pending)
            let applied = first.applied
            let second = engine.reconcile(plan, pending: applied)
            #expect(second.isEmpty, "seed \(seed)")
            #expect(second.keep.count == applied.count, "seed \(seed)")
        }
    }
}
