import HeraldContract
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

    /// The request context reads the user context's fields and the trigger's params in place,
    /// by slot, `.null` meaning absent, and its own tail holds the type's computed values:
    /// reads see exactly those values, and nothing out of range.
    @Test func contextReadsItsInputsBySlot() throws {
        let engine = DecideSupport.engine()
        let type = engine.bundle.types.first { !$0.params.isEmpty }!
        let table = engine.tables[type.id]!
        let name = type.params.first { $0.type == .string }?.name
        let request = DecideSupport.request(type.id, params: name.map { [$0: "x"] } ?? [:])
        let inputs = try engine.inputs(request).get()
        let fieldCount = engine.fields.count, paramCount = type.params.count
        #expect(fieldCount > 1)
        engine.withContext(inputs.trigger, user: inputs.user, table: table, ledger: nil, now: request.now) { context in
            for index in 0 ..< fieldCount {
                let stored = inputs.user.fields[index]
                #expect(context.field(index) == (stored == .null ? nil : stored), "field \(index)")
            }
            for index in 0 ..< paramCount {
                let stored = inputs.trigger.params[index]
                #expect(context.param(index) == (stored == .null ? nil : stored), "param \(index)")
            }
            #expect(name == nil || inputs.trigger.params.contains(.string("x")))
            // The computed slots follow the params; writes out of their range are ignored.
            let computed = table.computedEvals.count
            context.withComputedSlots { $0.set(computed, .int(9)) }
            context.withComputedSlots { $0.set(-1, .int(9)) }
            if computed > 0 {
                context.withComputedSlots { $0.set(0, .string("computed")) }
                #expect(context.param(paramCount) == .string("computed"))
            }
            #expect(context.field(-1) == nil)
            #expect(context.field(fieldCount) == nil)
            #expect(context.param(-1) == nil)
            #expect(context.param(paramCount + computed) == nil)
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
        let inputs = try! engine.inputs(request).get()
        engine.withContext(inputs.trigger, user: inputs.user, table: engine.tables[type]!, ledger: nil, now: request.now) { context in
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
        let inputs = try! engine.inputs(request).get()
        engine.withContext(inputs.trigger, user: inputs.user, table: engine.tables[type]!, ledger: nil, now: request.now) { context in
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
}
