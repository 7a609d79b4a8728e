import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// `abs(x)` (docs/language.md § Functions): an int or a duration without its sign.
@Suite struct ExpressionAbsTests {
    static func evaluate(_ text: String, _ values: [String: Value]) throws -> Value {
        let (compiled, diagnostics) = Fixture.compile(text)
        #expect(diagnostics.isEmpty)
        return try #require(compiled).evaluate(DictionaryContext(values: values))
    }

    @Test(arguments: [(-4, 4), (4, 4), (0, 0), (Int.min, Int.min)])
    func absOfAnInt(value: Int, expected: Int) throws {
        #expect(try Self.evaluate("abs(state.streak)", ["state.streak": .int(value)]) == .int(expected))
    }

    @Test func absOfADurationAndOfAConstant() throws {
        #expect(try Self.evaluate("abs(state.wait)", ["state.wait": .duration(-90)]) == .duration(90))
        let (compiled, _) = Fixture.compile("abs(-48h)")
        #expect(compiled?.type == .duration)
        #expect(compiled?.evaluate(DictionaryContext(values: [:])) == .duration(48 * 3600))
    }

    @Test func absOfAnAbsentValueIsAbsent() throws {
        #expect(try Self.evaluate("abs(state.streak) < 2", [:]) == .bool(false))
    }

    @Test func absNeedsOneIntOrDuration() {
        #expect(Fixture.compile("abs('x')").1.map(\.code) == [.exprTypeMismatch])
        #expect(Fixture.compile("abs(1, 2)").1.map(\.code) == [.exprArgumentCount])
    }
}
