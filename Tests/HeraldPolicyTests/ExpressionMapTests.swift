import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Maps and keyed lookups (docs/language.md § Maps): `m[key]` of a `map<T>` field is a `T?`,
/// read through `??` or `has()`; a missing key is absent.
@Suite struct ExpressionMapTests {
    static let environment = ExpressionEnvironment.standard(
        state: ["sessions": .object(["status": .value(.map(.enumeration(EnumType(cases: ["scheduled", "cancelled"])))),
                                     "cadence": .value(.map(.int))])],
        user: [:], params: ["sessionId": .string, "n": .int], categories: [], channels: [], types: [])

    static func compile(_ text: String) -> (CompiledExpression?, [DiagnosticCode]) {
        var diagnostics = Diagnostics()
        let compiled = ExpressionCompiler.compile(text, expecting: nil, in: environment, diagnostics: &diagnostics)
        return (compiled, diagnostics.items.map(\.code))
    }

    static let context = DictionaryContext(values: [
        "state.sessions.status": .map(["s-1": .string("scheduled"), "s-2": .string("cancelled")]),
        "state.sessions.cadence": .map(["s-1": .int(2)]),
    ])

    @Test(arguments: [("s-1", true), ("s-2", false), ("s-9", false)])
    func anEntryIsReadByKeyAndAMissingKeyTakesTheDefault(id: String, scheduled: Bool) throws {
        let (compiled, codes) = Self.compile("(state.sessions.status[params.sessionId] ?? 'cancelled') == 'scheduled'")
        #expect(codes.isEmpty)
        let context = DictionaryContext(values: Self.context.values.merging(["params.sessionId": .string(id)]) { a, _ in a })
        #expect(try #require(compiled).evaluate(context) == .bool(scheduled))
    }

    @Test func hasTellsWhetherTheKeyIsPresent() throws {
        let (compiled, codes) = Self.compile("has(state.sessions.cadence['s-1']) && !has(state.sessions.cadence['s-2'])")
        #expect(codes.isEmpty)
        #expect(try #require(compiled).evaluate(Self.context) == .bool(true))
        #expect(compiled?.type == .bool)
    }

    @Test func theMapFieldItselfIsRequired() throws {
        let (compiled, _) = Self.compile("state.sessions.cadence[params.sessionId] ?? 1")
        #expect(compiled?.requiredPaths.contains(["state", "sessions", "cadence"]) == true)
        #expect(compiled?.evaluate(DictionaryContext(values: [:])) == .int(1))
    }

    @Test(arguments: [
        ("state.sessions.cadence[params.sessionId] > 1", DiagnosticCode.exprOptionalWithoutHas),
        ("(params.sessionId[params.sessionId] ?? '') == ''", .mapIndexNotAMap),
        ("(state.sessions.cadence[params.n] ?? 1) > 1", .mapKeyType),
        ("size(state.sessions.status) > 0", .mapWithoutKey),
        ("(state.sessions.status[params.sessionId] ?? 'done') == 'scheduled'", .exprUnknownEnumCase),
    ])
    func misuseIsReported(text: String, code: DiagnosticCode) {
        #expect(Self.compile(text).1 == [code])
    }

    @Test func schemaTypesParseMapsOfPlainValues() {
        #expect(SchemaTypeParser.parse("map<int>") == .map(.int))
        #expect(SchemaTypeParser.parse("map<enum(a, b)>") == .map(.enumeration(EnumType(cases: ["a", "b"]))))
        #expect(SchemaTypeParser.parse("map<list<int>>") == nil)
        #expect(SchemaTypeParser.parse("map<int?>") == nil)
        #expect(SchemaTypeParser.parse("map<map<int>>") == nil)
    }
}
