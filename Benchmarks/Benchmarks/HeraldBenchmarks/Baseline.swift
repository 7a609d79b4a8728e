import HeraldContract
import HeraldEngine

/// The Handz due-today decision hard-coded in plain Swift: what a service would write without
/// Herald. It keeps its own per-user index (sorted instants, global and per type, and the sent
/// keys) as a service would, and answers the same question for the same request: eligibility,
/// category/type toggles, permission, the no-due-items rule, the key, 19:00 local alignment,
/// quiet hours 22:00–07:00, caps (type 1/day, global 10/day, burst 1/min, soft maxPerDay for
/// maintenance+mastery → batch), and the rendered copy. No trace, no rule citations.
struct HardCodedHandz {
    struct Index {
        var global: [Int] = []
        var byType: [String: [Int]] = [:]
        var keys: Set<String> = []

        init(_ history: [HistoryEntry]) {
            for e in history where e.status != .cancelled {
                keys.insert(e.key)
                global.append(e.deliverAt)
                byType[e.type, default: []].append(e.deliverAt)
            }
            global.sort()
            for k in byType.keys { byType[k]!.sort() }
        }

        static func lowerBound(_ a: [Int], _ v: Int) -> Int {
            var lo = 0, hi = a.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if a[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        static func count(_ a: [Int], _ range: Range<Int>) -> Int {
            lowerBound(a, range.upperBound) - lowerBound(a, range.lowerBound)
        }
    }

    struct Outcome {
        var schedule: Bool
        var reason: String
        var deliverAt: Int
        var key: String
        var body: String
    }

    let zone: Zone

    func decide(userID: String, account: Bool, tier: String, dueToday: Int, count: Int,
                maxPerDay: Int, maintenanceOn: Bool, typeOn: Bool, permissionGranted: Bool,
                reminderTime: Int, at: Int, now: Int, index: Index) -> Outcome {
        func no(_ reason: String) -> Outcome { Outcome(schedule: false, reason: reason, deliverAt: 0, key: "", body: "") }
        guard account, tier == "free" || tier == "pro" || tier == "trial" else { return no("ineligible") }
        guard maintenanceOn else { return no("category_off") }
        guard typeOn else { return no("type_off") }
        var reason = "reminder_time"
        var t = max(zone.nextOccurrence(of: reminderTime / 60, atOrAfter: at), now)
        let local = zone.localDateTime(of: t)
        let key = "N-MAINT-DUE-TODAY:\(userID):\(local.civilDate)"
        guard permissionGranted else { return no("system_denied") }
        guard dueToday != 0 else { return no("no_due_items") }
        guard !index.keys.contains(key) else { return no("duplicate") }
        // Quiet hours 22:00–07:00 → the next 07:00.
        let minute = zone.localDateTime(of: t).time
        if minute >= 22 * 60 || minute < 7 * 60 {
            t = zone.nextOccurrence(of: 7 * 60, atOrAfter: t)
            reason = "quiet_hours"
        }
        let date = zone.localDate(of: t)
        let dayRange = zone.startOfDay(date)! ..< zone.startOfDay(date + 1)!
        if Index.count(index.byType["N-MAINT-DUE-TODAY"] ?? [], dayRange) >= 1 { return no("rate_limited") }
        if Index.count(index.global, dayRange) >= 10 { return no("rate_limited") }
        while Index.count(index.global, (t - 59) ..< (t + 60)) >= 1 {
            t += 60
            reason = "burst_spacing"
        }
        if Index.count(index.global, dayRange) >= maxPerDay { return no("batched") }
        let body = "Maintenance due: \(count == 1 ? "1 item" : "\(count) items"). Keep your reactions sharp."
        return Outcome(schedule: true, reason: reason, deliverAt: t, key: key, body: body)
    }

    /// The benchmarks' request: the Fixtures' due-today trigger for a free user with 2 items
    /// due, default preferences (19:00 reminder, maxPerDay 2), permission granted.
    func dueToday(_ index: Index) -> Outcome {
        decide(userID: "u1", account: true, tier: "free", dueToday: 2, count: 2, maxPerDay: 2,
               maintenanceOn: true, typeOn: true, permissionGranted: true,
               reminderTime: 19 * 3600, at: Fixtures.noon, now: Fixtures.noon, index: index)
    }
}
