extension SimulationResult {
    /// The report for people: the summary, then each count table, largest first.
    public func text() -> String {
        var out = "\(policyName) · \(scenario): \(users) users × \(days) days, seed \(seed)\n\n"
        out += "deliveries per user per day  mean \(Self.hundredths(meanPerUserDayHundredths))  p50 \(percentile(50))  p95 \(percentile(95))  max \(maxPerUserDay)\n"
        out += "decisions                    \(decisions) (schedule \(actions["schedule"] ?? 0), batch \(actions["batch"] ?? 0), suppress \(actions["suppress"] ?? 0))\n"
        out += "deliveries                   \(deliveries)\n"
        out += "batches and digests          \(batches) batches, \(digests) digests, holding \(batchedMembers) notifications\n"
        out += "quiet-hours deferrals        \(quietHoursDeferrals)\n"
        out += "opened / dismissed           \(opened) / \(dismissed)\n"
        if plans > 0 { out += "daily plans                  \(plans)\n" }
        if pendingAtEnd > 0 { out += "pending at the end           \(pendingAtEnd) (due after the last day)\n" }
        out += Self.table("suppressions by reason", suppressions)
        out += Self.table("caps that acted", caps)
        out += Self.table("rules that decided", rules)
        out += Self.table("deliveries by category", byCategory)
        if !errors.isEmpty {
            out += "\nrequest errors\n"
            for key in errors.keys.sorted() { out += "  \(key): \(errors[key]!) (first: \(errorMessages[key]!))\n" }
        }
        return out
    }

    static func table(_ title: String, _ map: [String: Int]) -> String {
        var out = "\n\(title)\n"
        if map.isEmpty { return out + "  none\n" }
        let keys = map.keys.sorted { (map[$0]!, $1) > (map[$1]!, $0) }
        let width = String(map.values.max() ?? 0).count
        for key in keys {
            let n = String(map[key]!)
            out += "  " + String(repeating: " ", count: width - n.count) + n + "  " + key + "\n"
        }
        return out
    }
}
