@testable import HeraldEngine
import HeraldPolicy
import HeraldSyntax
import Testing

/// The small data structures the decide hot path uses instead of general collections:
/// each is checked against the general collection it replaces.
@Suite struct HotPathStructureTests {
    @Test func typeIndexFindsEveryTypeAndNothingElse() {
        let engine = DecideSupport.engine()
        for type in engine.bundle.types {
            #expect(engine.tables[type.id]?.type.id == type.id)
        }
        #expect(engine.tables["no-such-type"] == nil)
        #expect(engine.tables[""] == nil)
        // Many names in a small table: probing past collisions, long and non-ASCII names.
        var tables: [String: TypeTable] = [:]
        let any = engine.tables[engine.bundle.types.names[0]]!
        let names = (0 ..< 300).map { "type-\($0)" } + ["é", "🎵-with-a-long-name-beyond-fifteen-bytes", "a"]
        for name in names { tables[name] = any }
        let index = TypeIndex(tables)
        for name in names { #expect(index[name] != nil) }
        for miss in ["type-300", "type-", "b", "é2"] { #expect(index[miss] == nil) }
        #expect(TypeIndex.hash("type-1") == TypeIndex.hash(String("xtype-1".dropFirst())))
    }

    @Test func scopeTableAgreesWithADictionaryAcrossGrowth() {
        var table = ScopeTable()
        var reference: [LedgerScope: Int] = [:]
        var scopes: [LedgerScope] = [.global]
        for i in 0 ..< 300 {
            scopes.append(.type("t\(i)"))
            scopes.append(.category("c\(i % 7)"))
            scopes.append(.typeSubject(type: "t\(i % 5)", subject: "s\(i)"))
        }
        for (id, scope) in scopes.enumerated() where reference[scope] == nil {
            table[LedgerScope.Key(scope)] = id
            reference[scope] = id
        }
        #expect(table.count == reference.count)
        for (scope, id) in reference { #expect(table[LedgerScope.Key(scope)] == id) }
        // Absent scopes, including ones whose names collide in other kinds.
        #expect(table[LedgerScope.Key(.channel("t1"))] == nil)
        #expect(table[LedgerScope.Key(.subject("t1"))] == nil)
        #expect(table[LedgerScope.Key(.type("t300"))] == nil)
    }

    @Test func scopeKeysDistinguishKindsAndNameBoundaries() {
        #expect(LedgerScope.Key(.type("a")) != LedgerScope.Key(.category("a")))
        #expect(LedgerScope.Key(.typeSubject(type: "ab", subject: "c")) != LedgerScope.Key(.typeSubject(type: "a", subject: "bc")))
        #expect(LedgerScope.Key(.type("a")) == LedgerScope.Key(.type("a")))
        #expect(LedgerScope.Key(.type("a")).hash == LedgerScope.Key(.type("a")).hash)
    }

    /// The request context keeps converted values in its own allocation, one slot per field
    /// then per param, `.null` meaning absent: reads see exactly what was written, whatever
    /// the order, overwrites and removals, and nothing out of range.
    @Test func contextSlotsBehaveLikeArraysOfOptionals() {
        let engine = DecideSupport.engine()
        let type = engine.bundle.types.first { !$0.params.isEmpty }!
        let table = engine.tables[type.id]!
        let request = DecideSupport.request(type.id)
        var errors: [RequestError] = []
        let prefs = engine.preferences(request.prefs, errors: &errors)
        let fieldCount = engine.fields.count, paramCount = type.params.count
        #expect(fieldCount > 1)
        engine.withContext(request, table: table, prefs: prefs, ledger: nil, now: request.now) { context in
            var fields = [Value?](repeating: nil, count: fieldCount)
            var params = [Value?](repeating: nil, count: paramCount)
            let writes: [(Int, Value?)] = [
                (1, .int(1)), (0, .string("a string longer than fifteen bytes")), (fieldCount - 1, .bool(true)),
                (1, .int(33)), (0, nil), (fieldCount, .int(0)), (-1, .int(0)),
                (0, .list([.string("x"), .int(2)])), (fieldCount - 1, .bool(false)),
            ]
            for (slot, value) in writes {
                // Slots out of the fields' range (-1, `fieldCount`) are ignored, not a param's.
                context.withFieldSlots { $0.set(slot, value) }
                if slot >= 0, slot < fieldCount { fields[slot] = value }
                for index in 0 ..< fieldCount { #expect(context.field(index) == fields[index], "field \(index) after writing \(slot)") }
            }
            context.withParamSlots { $0.set(paramCount - 1, .string("last")) }
            params[paramCount - 1] = .string("last")
            context.withParamSlots { $0.set(paramCount, .int(9)) }  // out of range: ignored
            context.withParamSlots { $0.set(-1, .int(9)) }  // out of range: ignored
            for index in 0 ..< paramCount { #expect(context.param(index) == params[index], "param \(index)") }
            #expect(context.field(-1) == nil)
            #expect(context.field(fieldCount) == nil)
            #expect(context.param(-1) == nil)
            #expect(context.param(paramCount) == nil)
        }
    }

    /// Trace records live inline up to `capacity` and overflow to the heap beyond it, in the
    /// decision and in the request context, keeping their order either way.
    @Test func traceRecordsKeepTheirOrderPastTheInlineCapacity() {
        let stages = TraceStep.Stage.allCases
        func record(_ i: Int) -> TraceRecord {
            TraceRecord(stage: stages[i % stages.count], outcome: i % 2 == 0 ? .pass : .skip, citation: nil,
                        note: .rulesFalse(Int32(i)))
        }
        func numbers(_ records: TraceRecords) -> [Int32] {
            records.map { if case .rulesFalse(let n) = $0.note { n } else { -1 } }
        }
        let total = TraceRecords.capacity + 7
        var records = TraceRecords()
        for i in 0 ..< total { records.append(record(i)) }
        #expect(records.count == total)
        #expect(numbers(records) == (0 ..< total).map(Int32.init))

        let engine = DecideSupport.engine()
        let type = engine.bundle.types.names[0]
        let request = DecideSupport.request(type)
        var errors: [RequestError] = []
        let prefs = engine.preferences(request.prefs, errors: &errors)
        engine.withContext(request, table: engine.tables[type]!, prefs: prefs, ledger: nil, now: request.now) { context in
            for i in 0 ..< total { context.record(record(i)) }
            var read = TraceRecords()
            context.copyRecords(into: &read)
            #expect(numbers(read) == (0 ..< total).map(Int32.init))
        }
    }

    /// Copies of trace records past the inline capacity do not share what either appends
    /// (the overflow is copy on write).
    @Test func traceRecordCopiesDoNotShareTheirOverflow() {
        func record(_ n: Int32) -> TraceRecord { TraceRecord(stage: .caps, outcome: .pass, citation: nil, note: .rulesFalse(n)) }
        func numbers(_ records: TraceRecords) -> [Int32] {
            records.map { if case .rulesFalse(let n) = $0.note { n } else { -1 } }
        }
        var a = TraceRecords()
        for i in 0 ..< Int32(TraceRecords.capacity + 2) { a.append(record(i)) }
        var b = a
        a.append(record(100))
        b.append(record(200))
        b.append(record(201))
        let common = (0 ..< Int32(TraceRecords.capacity + 2)).map { $0 }
        #expect(numbers(a) == common + [100])
        #expect(numbers(b) == common + [200, 201])
        #expect(a.count == common.count + 1 && b.count == common.count + 2)
    }

    /// A pinned buffer keeps a copy of its elements (reference-counted ones included) for as
    /// long as it lives, and releases them when it is destroyed.
    @Test func pinnedBufferOwnsItsElements() {
        final class Box: Sendable { let n: Int; init(_ n: Int) { self.n = n } }
        weak var watched: Box?
        do {
            var boxes: [Box] = [Box(1), Box(2), Box(3)]
            watched = boxes[1]
            let pinned = PinnedBuffer(boxes)
            boxes.removeAll()
            #expect(pinned.count == 3)
            #expect(pinned.buffer.map(\.n) == [1, 2, 3])
            #expect(watched != nil)
        }
        #expect(watched == nil)
    }

    /// An unowned evaluator (what the engine's tables keep for the hot path) evaluates exactly
    /// as its expression does, for values, absent data and bool results.
    @Test func unownedEvaluatorMatchesItsExpression() throws {
        let engine = DecideSupport.engine()
        let expressions = engine.bundle.types.compactMap(\.eligible) + engine.bundle.types.flatMap { $0.suppress.compactMap(\.when) }
        #expect(!expressions.isEmpty)
        let type = engine.bundle.types.names[0]
        let request = DecideSupport.request(type)
        var errors: [RequestError] = []
        let prefs = engine.preferences(request.prefs, errors: &errors)
        engine.withContext(request, table: engine.tables[type]!, prefs: prefs, ledger: nil, now: request.now) { context in
            _ = context.withFieldSlots { slots in
                engine.convertFields(state: request.state, user: request.user, into: slots, errors: &errors)
            }
            for expression in expressions {
                let unowned = UnownedExpression(keptAlongside: expression)
                #expect(unowned.evaluate(context) == expression.evaluate(context), "\(expression.source)")
                #expect(unowned.evaluateBool(context) == expression.evaluateBool(context), "\(expression.source)")
            }
        }
    }

    /// The run walks the decision's stages in the contract's order, each once; `render` is the
    /// decision's own last step and `prompt` belongs to prompt decisions.
    @Test func pipelineRunsEveryDecisionStageInOrder() {
        let walked = DecisionRun.pipeline
        #expect(walked + [.render, .prompt] == TraceStep.Stage.allCases)
    }

    @Test func textBufferJoinsAndAppendsUTF8() {
        #expect(TextBuffer.join("N-MAINT", "u1", "2026-03-10", separator: UInt8(ascii: ":")) == "N-MAINT:u1:2026-03-10")
        #expect(TextBuffer.join("", "", "", separator: UInt8(ascii: "/")) == "//")
        #expect(TextBuffer.join("café", "日本", "🎵", separator: UInt8(ascii: ":")) == "café:日本:🎵")
        var buffer = TextBuffer(capacity: 2)
        buffer.append("Due: ")
        buffer.append(7)
        buffer.append(" items, ")
        buffer.append(-12)
        buffer.append("! ✓")
        #expect(buffer.string == "Due: 7 items, -12! ✓")
    }

    /// `decideOne(_:ledger:now:reuse:)` reuses converted prefs and state only while they are
    /// equal: every decision equals the one made without reuse, whatever came before it.
    @Test func reusedConversionsNeverLeak() throws {
        typealias S = DecideSupport
        let engine = S.engine()
        let now = S.instant(S.t0)
        let requests = [
            S.request("morning"),
            S.request("morning", prefs: ["timezone": "America/New_York"]),
            S.request("morning", prefs: ["timezone": "America/New_York"]),
            S.request("morning", state: ["streak": 0, "unread": 5]),
            S.request("morning", state: ["streak": "three", "unread": 2]),
            S.request("morning", prefs: ["timezone": "Not/AZone"]),
            S.request("morning", user: ["id": "u2", "account": false, "premium": true]),
            S.request("morning"),
        ]
        var reuse = RequestConversions()
        for (index, request) in requests.enumerated() {
            let reused = engine.decideOne(request, now: now, reuse: &reuse)
            let alone = engine.decideOne(request, now: now)
            switch (reused, alone) {
            case (.success(let a), .success(let b)):
                #expect(a.json() == b.json(), "request \(index)")
            case (.failure(let a), .failure(let b)):
                #expect(a.errors.map(\.path) == b.errors.map(\.path), "request \(index)")
            default:
                Issue.record("request \(index): reuse changed success into failure or back")
            }
        }
        // The New York request really differs from the default one (so reuse was tested).
        let plain = try engine.decide(requests[0], now: now).get()
        let newYork = try engine.decide(requests[1], now: now).get()
        #expect(plain.json() != newYork.json())
    }
}

/// `ZoneTable.segment(containing:)` starts from a per-bucket hint inside the table's coverage:
/// it must find exactly the segment a search over every transition finds, at every
/// transition (and a second either side), at bucket edges and at random instants, for zones
/// with DST, with half-hour and 45-minute offsets, and with a skipped day (Pacific/Apia 2011).
@Suite struct ZoneSegmentTests {
    static func searched(_ table: ZoneTable, _ instant: Int) -> Int {
        if instant >= table.cycleEnd {
            // Past the cycle, the segment of the instant whole periods earlier.
            let periods = (instant - table.cycleEnd) / ZoneTable.cyclePeriod + 1
            return searched(table, instant - periods * ZoneTable.cyclePeriod)
        }
        return table.transitions.partitioningIndex { $0 > instant }
    }

    @Test(arguments: ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kathmandu",
                      "Pacific/Chatham", "Pacific/Apia", "UTC"])
    func bucketedLookupMatchesAFullSearch(_ name: String) throws {
        let table = try #require(Zone(identifier: name)).table
        var instants: [Int] = [Int.min / 4, -(1 << 50), ZoneTable.coverage.lowerBound - 1, ZoneTable.coverage.lowerBound,
                               ZoneTable.coverage.upperBound - 1, ZoneTable.coverage.upperBound, 1 << 50]
        for t in table.transitions { instants += [t - 1, t, t + 1] }
        for bucket in stride(from: 0, to: ZoneTable.coverage.count >> ZoneTable.bucketShift, by: 97) {
            let edge = ZoneTable.coverage.lowerBound + bucket << ZoneTable.bucketShift
            instants += [edge - 1, edge, edge + 1]
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0 ..< 2_000 { instants.append(Int.random(in: ZoneTable.coverage, using: &random)) }
        for instant in instants {
            #expect(table.segment(containing: instant) == Self.searched(table, instant), "\(name) at \(instant)")
        }
        #expect(table.transitions.count > 0 || name == "UTC")
    }
}

private extension Array where Element == Int {
    /// The first index whose element satisfies `belongs` (elements are sorted so that once it
    /// holds it holds for the rest), by a linear scan: the test's independent answer.
    func partitioningIndex(where belongs: (Int) -> Bool) -> Int {
        firstIndex(where: belongs) ?? count
    }
}

/// The ledger's idempotency-key table answers exactly as a dictionary does: first entry wins,
/// growth keeps every key, and a table whose probing degrades keeps answering from a
/// standard dictionary.
@Suite struct KeyTableTests {
    static func keys(_ n: Int) -> [String] {
        (0 ..< n).map { i in
            switch i % 4 {
            case 0: "N-MAINT-DUE-TODAY:u\(i):2026-03-\(10 + i % 18)"
            case 1: "k\(i)"                       // short (a small string)
            case 2: String(repeating: "é", count: i % 40) + "\(i)"   // non-ASCII, many lengths
            default: "exactly8" + String(i)       // word-sized prefixes
            }
        }
    }

    @Test(arguments: [0, 64])
    func matchesADictionary(maxProbe: Int) {
        var table = KeyTable(maxProbe: maxProbe)
        var reference: [String: Int] = [:]
        let keys = Self.keys(3_000)
        for (i, key) in keys.enumerated() {
            let isNew = reference[key] == nil
            if isNew { reference[key] = i }
            let inserted = table.insert(key, first: i)
            #expect(inserted == isNew)
            let repeated = table.insert(key, first: -i - 1)   // a repeat never replaces the first
            #expect(!repeated)
        }
        #expect(table.count == reference.count)
        for key in keys { #expect(table[key] == reference[key]) }
        for miss in ["", "N-MAINT-DUE-TODAY:u0:2026-03-11", "k", "exactly8", "é"] where reference[miss] == nil {
            #expect(table[miss] == nil)
        }
        if maxProbe == 0 { #expect(table.usesFallback) }   // any collision degrades at once
    }

    @Test func hashDependsOnTheSeedAndEveryByte() {
        let a = KeyTable.hash("N-MAINT-DUE-TODAY:u1:2026-03-10", seed: 1)
        #expect(a == KeyTable.hash("N-MAINT-DUE-TODAY:u1:2026-03-10", seed: 1))
        #expect(a != KeyTable.hash("N-MAINT-DUE-TODAY:u1:2026-03-10", seed: 3))
        #expect(a != KeyTable.hash("N-MAINT-DUE-TODAY:u1:2026-03-11", seed: 1))
        #expect(a != KeyTable.hash("O-MAINT-DUE-TODAY:u1:2026-03-10", seed: 1))
        #expect(KeyTable.hash("", seed: 1) != 0)
        #expect(KeyTable.hash("abc", seed: 1) != KeyTable.hash("abc\u{0}", seed: 1))
    }
}
