import Testing
import HeraldContract
@testable import HeraldEngine

/// Every query checked against a brute-force scan of the same history.
@Suite struct LedgerIndexTests {
    /// A type or category scope's status row has one bucket per status, at its ordinal.
    @Test func statusRowsHaveOneBucketPerStatus() {
        #expect(LedgerIndex.statusCount == HistoryEntry.Status.allCases.count)
        #expect(Set(HistoryEntry.Status.allCases.map(\.ordinal)) == Set(0..<LedgerIndex.statusCount))
    }

    static let types = ["A", "B", "C", "D"]
    static let categories: [String: String] = ["A": "cat1", "B": "cat1", "C": "cat2"]  // D has none
    static let channels = ["local", "push"]
    static let subjects = ["s1", "s2", "s3"]

    /// The scopes an entry belongs to, the slow way.
    static func belongs(_ entry: HistoryEntry, to scope: LedgerScope) -> Bool {
        switch scope {
        case .global: true
        case .type(let t): entry.type == t
        case .category(let c): categories[entry.type] == c
        case .channel(let c): entry.channel == c
        case .subject(let s): entry.subject == s
        case .typeSubject(let t, let s): entry.type == t && entry.subject == s
        }
    }

    /// The counted instants of a scope, with batches reduced to their earliest member for
    /// the global scope.
    static func reference(_ entries: [HistoryEntry], _ scope: LedgerScope, counting: Set<HistoryEntry.Status>) -> [Int] {
        let counted = entries.filter { counting.contains($0.status) && $0.status != .cancelled && belongs($0, to: scope) }
        guard scope == .global else { return counted.map(\.deliverAt).sorted() }
        var batches: [String: Int] = [:]
        var result: [Int] = []
        for entry in counted {
            if let batch = entry.batchKey {
                batches[batch] = min(batches[batch] ?? .max, entry.deliverAt)
            } else {
                result.append(entry.deliverAt)
            }
        }
        return (result + batches.values).sorted()
    }

    static func randomEntry(_ rng: inout SplitMix64, span: Int, index: Int) -> HistoryEntry {
        let type = types.randomElement(using: &rng)!
        let subject = Bool.random(using: &rng) ? subjects.randomElement(using: &rng) : nil
        let channel = Int.random(in: 0..<3, using: &rng) == 0 ? nil : channels.randomElement(using: &rng)
        let status = HistoryEntry.Status.allCases.randomElement(using: &rng)!
        let batch = Int.random(in: 0..<4, using: &rng) == 0 ? "batch-\(Int.random(in: 0..<3, using: &rng))" : nil
        return HistoryEntry(key: "k\(index % 50)", type: type, subject: subject, channel: channel,
                            deliverAt: Int.random(in: 0..<span, using: &rng), status: status, batchKey: batch)
    }

    static func randomScope(_ rng: inout SplitMix64) -> LedgerScope {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: .global
        case 1: .type(types.randomElement(using: &rng)!)
        case 2: .category(["cat1", "cat2", "cat3"].randomElement(using: &rng)!)
        case 3: .channel(channels.randomElement(using: &rng)!)
        case 4: .subject(subjects.randomElement(using: &rng)!)
        case 5: .typeSubject(type: types.randomElement(using: &rng)!, subject: subjects.randomElement(using: &rng)!)
        default: .type("unknown")
        }
    }

    @Test func randomLedgersAgreeWithBruteForce() {
        var rng = SplitMix64(seed: 20_261_122)
        for round in 0..<400 {
            let span = [20, 100, 1000].randomElement(using: &rng)!
            let count = Int.random(in: 0..<40, using: &rng)
            let entries = (0..<count).map { Self.randomEntry(&rng, span: span, index: $0) }
            let counting: Set<HistoryEntry.Status> = round % 5 == 0 ? [.delivered, .opened, .cancelled] : HistoryEntry.Status.counting
            let index = LedgerIndex(entries, counting: counting, categories: Self.categories)
            for _ in 0..<10 {
                let scope = Self.randomScope(&rng)
                let instants = Self.reference(entries, scope, counting: counting)
                #expect(index.instants(in: scope) == instants)
                let a = Int.random(in: -5...(span + 5), using: &rng)
                let b = Int.random(in: -5...(span + 5), using: &rng)
                let range = min(a, b)..<max(a, b)
                #expect(index.count(scope, in: range) == instants.filter(range.contains).count)
                #expect(index.last(scope, before: a) == instants.last(where: { $0 < a }))
                #expect(index.first(scope, atOrAfter: a) == instants.first(where: { $0 >= a }))
            }
            for k in 0..<55 {
                let key = "k\(k)"
                #expect(index.contains(key: key) == entries.contains { $0.key == key && $0.status != .cancelled })
            }
        }
    }

    @Test func insertingMatchesBuildingFromScratch() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200 {
            let entries = (0..<Int.random(in: 0..<30, using: &rng)).map { Self.randomEntry(&rng, span: 200, index: $0) }
            let split = Int.random(in: 0...entries.count, using: &rng)
            var index = LedgerIndex(entries[..<split], categories: Self.categories)
            let typeA = index.intern(.type("A"))
            for entry in entries[split...] { index.insert(entry) }
            let full = LedgerIndex(entries, categories: Self.categories)
            for scope in [LedgerScope.global, .type("A"), .type("D"), .category("cat1"), .channel("push"),
                          .subject("s2"), .typeSubject(type: "B", subject: "s1")] {
                #expect(index.instants(in: scope) == full.instants(in: scope))
            }
            #expect(index.count(typeA, in: 0..<200) == full.count(.type("A"), in: 0..<200))
            for k in 0..<30 { #expect(index.contains(key: "k\(k)") == full.contains(key: "k\(k)")) }
        }
    }

    /// `count(_:statuses:in:)` (what `sent(target, window, [statuses])` asks) against a scan,
    /// for indexes built at once and grown by inserts, with any statuses (cancelled too).
    @Test func statusCountsAgreeWithBruteForce() {
        var rng = SplitMix64(seed: 7_331)
        for _ in 0..<300 {
            let entries = (0..<Int.random(in: 0..<40, using: &rng)).map { Self.randomEntry(&rng, span: 300, index: $0) }
            let split = Int.random(in: 0...entries.count, using: &rng)
            var grown = LedgerIndex(entries[..<split], categories: Self.categories)
            for entry in entries[split...] { grown.insert(entry) }
            let built = LedgerIndex(entries, categories: Self.categories)
            for _ in 0..<8 {
                let scope: LedgerScope = Bool.random(using: &rng)
                    ? .type(Self.types.randomElement(using: &rng)!) : .category(["cat1", "cat2", "cat3"].randomElement(using: &rng)!)
                let statuses = Set(HistoryEntry.Status.allCases.filter { _ in Bool.random(using: &rng) })
                let a = Int.random(in: -5...305, using: &rng), b = Int.random(in: -5...305, using: &rng)
                let range = min(a, b)..<max(a, b)
                let expected = entries.filter { statuses.contains($0.status) && Self.belongs($0, to: scope) && range.contains($0.deliverAt) }.count
                #expect(built.count(scope, statuses: statuses, in: range) == expected)
                #expect(grown.count(scope, statuses: statuses, in: range) == expected)
            }
        }
    }

    /// Status changes made in place (and the ones that re-index) answer every query as an
    /// index built from the changed entries does.
    @Test func settingStatusesMatchesBuildingFromScratch() {
        var rng = SplitMix64(seed: 4_242)
        for round in 0..<300 {
            var entries = (0..<Int.random(in: 1..<30, using: &rng)).map { Self.randomEntry(&rng, span: 200, index: $0) }
            let counting: Set<HistoryEntry.Status> = round % 4 == 0 ? [.delivered, .opened] : HistoryEntry.Status.counting
            var index = LedgerIndex(entries, counting: counting, categories: Self.categories)
            let original = index
            for _ in 0..<Int.random(in: 1..<8, using: &rng) {
                let position = Int.random(in: 0..<entries.count, using: &rng)
                let status = HistoryEntry.Status.allCases.randomElement(using: &rng)!
                entries[position].status = status
                index.setStatus(status, ofEntryAt: position)
            }
            let full = LedgerIndex(entries, counting: counting, categories: Self.categories)
            #expect(index.entries == entries)
            for scope in [LedgerScope.global, .type("A"), .type("D"), .category("cat1"), .category("cat2"), .channel("push"),
                          .subject("s2"), .typeSubject(type: "B", subject: "s1")] {
                #expect(index.instants(in: scope) == full.instants(in: scope))
            }
            for type in Self.types {
                for status in HistoryEntry.Status.allCases {
                    #expect(index.instants(.type(type), status: status) == full.instants(.type(type), status: status))
                }
                #expect(index.firstPending(type: type, after: -1, before: 201) == full.firstPending(type: type, after: -1, before: 201))
            }
            for batch in 0..<3 { #expect(index.batchWasSent("batch-\(batch)") == full.batchWasSent("batch-\(batch)")) }
            for k in 0..<30 { #expect(index.contains(key: "k\(k)") == full.contains(key: "k\(k)")) }
            #expect(original.entries.count == entries.count)
        }
    }

    @Test func addingLeavesTheOriginalUnchanged() {
        let base = LedgerIndex([HistoryEntry(key: "a", type: "A", deliverAt: 10, status: .delivered)])
        let grown = base.adding(HistoryEntry(key: "b", type: "A", deliverAt: 5, status: .scheduled))
        #expect(base.instants(in: .type("A")) == [10])
        #expect(grown.instants(in: .type("A")) == [5, 10])
        #expect(!base.contains(key: "b"))
        #expect(grown.contains(key: "b"))
    }

    @Test func windowsAreHalfOpen() {
        let index = LedgerIndex([10, 20, 20, 30].enumerated().map {
            HistoryEntry(key: "k\($0.offset)", type: "A", deliverAt: $0.element, status: .delivered)
        })
        #expect(index.count(.global, in: 10..<30) == 3)
        #expect(index.count(.global, in: 20..<21) == 2)
        #expect(index.count(.global, in: 20..<20) == 0)
        #expect(index.count(.global, in: 31..<100) == 0)
        #expect(index.last(.global, before: 20) == 10)
        #expect(index.last(.global, before: 21) == 20)
        #expect(index.last(.global, before: 10) == nil)
        #expect(index.first(.global, atOrAfter: 20) == 20)
        #expect(index.first(.global, atOrAfter: 31) == nil)
    }

    @Test func cancelledEntriesNeverCount() {
        let entries = [
            HistoryEntry(key: "x", type: "A", deliverAt: 10, status: .cancelled),
            HistoryEntry(key: "y", type: "A", deliverAt: 11, status: .dismissed),
        ]
        let index = LedgerIndex(entries, counting: Set(HistoryEntry.Status.allCases))
        #expect(!index.counting.contains(.cancelled))
        #expect(index.instants(in: .type("A")) == [11])
        #expect(!index.contains(key: "x"))
        #expect(index.contains(key: "y"))
    }

    @Test func batchesCountOnceGlobally() {
        var index = LedgerIndex([
            HistoryEntry(key: "a", type: "A", subject: "s", deliverAt: 100, status: .delivered, batchKey: "b1"),
            HistoryEntry(key: "b", type: "B", deliverAt: 100, status: .delivered, batchKey: "b1"),
            HistoryEntry(key: "c", type: "A", deliverAt: 100, status: .delivered, batchKey: "b1"),
            HistoryEntry(key: "d", type: "C", deliverAt: 50, status: .delivered),
        ], categories: Self.categories)
        #expect(index.count(.global, in: 0..<1000) == 2)
        #expect(index.count(.type("A"), in: 0..<1000) == 2)
        #expect(index.count(.category("cat1"), in: 0..<1000) == 3)
        index.insert(HistoryEntry(key: "e", type: "B", deliverAt: 120, status: .opened, batchKey: "b1"))
        #expect(index.instants(in: .global) == [50, 100])
        index.insert(HistoryEntry(key: "f", type: "B", deliverAt: 90, status: .opened, batchKey: "b1"))
        #expect(index.instants(in: .global) == [50, 90])
        index.insert(HistoryEntry(key: "g", type: "B", deliverAt: 95, status: .opened, batchKey: "b2"))
        #expect(index.instants(in: .global) == [50, 90, 95])
    }

    @Test func largeLedgers() {
        var rng = SplitMix64(seed: 100_000)
        let day = 86_400
        let entries = (0..<100_000).map { i in
            HistoryEntry(key: "k\(i)", type: "T\(i % 40)", subject: "s\(i % 500)", channel: i % 3 == 0 ? "push" : "local",
                         deliverAt: Int.random(in: 0..<(365 * day), using: &rng),
                         status: i % 17 == 0 ? .cancelled : .delivered, batchKey: i % 10 == 0 ? "b\(i / 30)" : nil)
        }
        var index = LedgerIndex(entries, categories: Dictionary(uniqueKeysWithValues: (0..<40).map { ("T\($0)", "c\($0 % 5)") }))
        let global = index.intern(.global)
        let type = index.intern(.type("T7"))
        let sample = Array(entries.prefix(2000))
        for _ in 0..<1000 {
            let t = Int.random(in: 0..<(365 * day), using: &rng)
            let expected = sample.filter { $0.type == "T7" && $0.status != .cancelled && $0.deliverAt >= t - day && $0.deliverAt < t }.count
            #expect(index.count(type, in: (t - day)..<t) >= expected)
            _ = index.last(global, before: t)
        }
        #expect(index.count(.global, in: 0..<(365 * day)) < 100_000)
    }
}
