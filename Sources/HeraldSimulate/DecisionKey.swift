import HeraldContract
import HeraldEngine

/// What a decision is counted under in the summary: its action, type, reason, the rule that
/// decided and the cap that acted.
///
/// Counting a decision is a scan of the user's short list of fingerprints (`DecisionTally`).
/// The fingerprint is an FNV-1a hash of the fields' bytes, made once per decision; equal
/// fingerprints are confirmed by comparing the keys (whose strings are the engine's own, read
/// from the bundle's tables, so equal keys compare by identity). The summary's text keys
/// (`"suppress rate_limited · rule"`) are made once per distinct key (`Tally`), not once per
/// decision.
struct DecisionKey: Hashable, Sendable {
    var action: Decision.Action
    var type: String
    var reason: String
    var rule: String?
    var cap: String?
    /// FNV-1a over the fields (a field's bytes, then a separator); equal keys, equal prints.
    let fingerprint: UInt64

    init(_ decision: Decision) {
        action = decision.action
        type = decision.type
        reason = decision.reason
        rule = decision.rule?.id
        cap = decision.cap
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        switch action {
        case .schedule: h = Self.mix(h, 1)
        case .suppress: h = Self.mix(h, 2)
        case .batch: h = Self.mix(h, 3)
        }
        h = Self.mix(h, type)
        h = Self.mix(h, reason)
        h = Self.mix(h, rule)
        h = Self.mix(h, cap)
        fingerprint = h
    }

    @inline(__always)
    private static func mix(_ h: UInt64, _ byte: UInt8) -> UInt64 {
        (h ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// A field's bytes then a separator (0xFF; 0xFE for an absent field).
    private static func mix(_ h: UInt64, _ field: String?) -> UInt64 {
        guard let field else { return mix(h, 0xFE) }
        let mixed = field.utf8.withContiguousStorageIfAvailable { bytes in bytes.reduce(h, mix) } ?? field.utf8.reduce(h, mix)
        return mix(mixed, 0xFF)
    }

    static func == (a: DecisionKey, b: DecisionKey) -> Bool {
        a.fingerprint == b.fingerprint && a.action == b.action && a.type == b.type && a.reason == b.reason
            && a.rule == b.rule && a.cap == b.cap
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
    }
}

/// Decisions counted by `DecisionKey`. A user's week meets a few distinct keys, so the first
/// `listLimit` keys are kept in a list found by fingerprint (no hashing of strings and no copy
/// of a key per decision); keys past the limit (a population's totals) go to a dictionary.
struct DecisionTally: Sendable {
    private var prints: [UInt64] = []
    private var keys: [DecisionKey] = []
    private var listCounts: [Int] = []
    private var more: [DecisionKey: Int] = [:]
    static let listLimit = 16

    /// Counts `n` more decisions under `key`.
    mutating func add(_ key: DecisionKey, _ n: Int = 1) {
        var index = 0
        while index < prints.count {
            if prints[index] == key.fingerprint && keys[index] == key {
                listCounts[index] += n
                return
            }
            index += 1
        }
        if prints.count < Self.listLimit {
            prints.append(key.fingerprint)
            keys.append(key)
            listCounts.append(n)
        } else {
            more[key, default: 0] += n
        }
    }

    /// Adds every count of `other`.
    mutating func add(_ other: DecisionTally) {
        for (key, n) in other.counts { add(key, n) }
    }

    /// Every key with its count (each key once, in no particular order).
    var counts: [(key: DecisionKey, count: Int)] {
        Array(zip(keys, listCounts)) + more.map { ($0.key, $0.value) }
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

    init(_ tallies: DecisionTally) {
        for (key, n) in tallies.counts {
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
