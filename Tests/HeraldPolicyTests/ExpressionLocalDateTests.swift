import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// `localDate(t)` and `days(a, b)` (docs/language.md § Functions): types, evaluation through
/// both compiled forms, absent values, and each misuse's code. Real zones are the engine's
/// (HeraldEngineTests' LocalDateTests); here the context's zone is a fixed offset.
@Suite struct ExpressionLocalDateTests {
    /// 2026-03-10T23:30:00Z.
    static let instant = 1_773_185_400
    /// 2026-03-08, days since 1970-01-01.
    static let march8 = 20_520

    static func context(_ values: [String: Value], offset: Int? = 0) -> DictionaryContext {
        DictionaryContext(values: values, zoneOffset: offset)
    }

    static func evaluate(_ text: String, _ context: DictionaryContext) throws -> Value {
        let (compiled, diagnostics) = Fixture.compile(text)
        #expect(diagnostics.isEmpty, "\(text): \(diagnostics)")
        let expression = try #require(compiled)
        // The bool form is compiled separately: it must agree.
        if expression.type == .bool { #expect(expression.evaluateBool(context) == (expression.evaluate(context) == .bool(true))) }
        return expression.evaluate(context)
    }

    @Test func types() {
        #expect(Fixture.type("localDate(trigger.at)") == .date)
        #expect(Fixture.type("localDate(state.lastOpenedAt ?? trigger.at)") == .date)
        #expect(Fixture.type("days(local.date, date('2026-03-08'))") == .int)
        #expect(Fixture.type("days(localDate(params.scheduledAt), local.date) >= 7") == .bool)
        #expect(Fixture.type("has(state.lastOpenedAt) && localDate(state.lastOpenedAt) == local.date") == .bool)
    }

    /// 23:30 UTC is the next date from +00:30 on (+13:45 is Chatham's daylight time, +05:45
    /// Kathmandu's), and the same date west of UTC.
    @Test(arguments: [(0, 20_522), (13 * 3600 + 45 * 60, 20_523), (5 * 3600 + 45 * 60, 20_523), (30 * 60, 20_523),
                      (29 * 60, 20_522), (-5 * 3600, 20_522), (-11 * 3600, 20_522)])
    func theLocalDateFollowsTheContextsZone(offset: Int, date: Int) throws {
        let context = Self.context(["params.scheduledAt": .instant(Self.instant)], offset: offset)
        #expect(try Self.evaluate("localDate(params.scheduledAt)", context) == .date(date))
    }

    @Test func localDateBeforeTheEpochRoundsDown() throws {
        let context = Self.context(["params.scheduledAt": .instant(-1)])
        #expect(try Self.evaluate("localDate(params.scheduledAt)", context) == .date(-1))
    }

    @Test func daysIsTheSecondDateMinusTheFirst() throws {
        let context = Self.context(["local.date": .date(Self.march8 + 7), "params.scheduledAt": .instant(Self.instant)])
        #expect(try Self.evaluate("days(date('2026-03-08'), local.date)", context) == .int(7))
        #expect(try Self.evaluate("days(local.date, date('2026-03-08'))", context) == .int(-7))
        #expect(try Self.evaluate("days(date('2026-03-08'), local.date) >= 7", context) == .bool(true))
        #expect(try Self.evaluate("days(localDate(params.scheduledAt), local.date)", context) == .int(5))
    }

    @Test func daysOfTwoLiteralsNeedsNoZone() {
        let (compiled, _) = Fixture.compile("days(date('2026-02-28'), date('2026-03-01'))")
        // No zone is read: a context without one gives the same answer.
        #expect(compiled?.evaluate(DictionaryContext(values: [:], zoneOffset: nil)) == .int(1))
        #expect(Fixture.compile("days(date('2028-02-28'), date('2028-03-01'))").0?.evaluate(DictionaryContext(values: [:])) == .int(2))
    }

    @Test func todayComparesWithLocalDate() throws {
        let values: [String: Value] = ["state.lastOpenedAt": .instant(Self.instant), "local.date": .date(20_522)]
        let rule = "has(state.lastOpenedAt) && localDate(state.lastOpenedAt) == local.date"
        #expect(try Self.evaluate(rule, Self.context(values)) == .bool(true))
        #expect(try Self.evaluate(rule, Self.context(values, offset: 3600)) == .bool(false))
        // Absent (never opened): not today.
        #expect(try Self.evaluate(rule, Self.context(["local.date": .date(20_522)])) == .bool(false))
        #expect(try Self.evaluate("!(" + rule + ")", Self.context(["local.date": .date(20_522)])) == .bool(true))
    }

    /// A context without a zone answers nil: the date is absent, and comparisons with it false.
    @Test func aContextWithoutAZoneMakesTheDateAbsent() throws {
        let context = Self.context(["params.scheduledAt": .instant(Self.instant), "local.date": .date(20_522)], offset: nil)
        #expect(try Self.evaluate("localDate(params.scheduledAt)", context) == .null)
        #expect(try Self.evaluate("localDate(params.scheduledAt) == local.date", context) == .bool(false))
        #expect(try Self.evaluate("days(localDate(params.scheduledAt), local.date) >= 0", context) == .bool(false))
    }

    @Test func misuses() {
        #expect(Fixture.errors("localDate(local.date) == local.date") == ["H0325@10"])
        #expect(Fixture.errors("localDate(local.time) == local.date") == ["H0325@10"])
        #expect(Fixture.errors("localDate(state.wait) == local.date") == ["H0325@10"])
        #expect(Fixture.errors("localDate(state.lastOpenedAt) == local.date") == ["H0311@10"])
        #expect(Fixture.errors("localDate() == local.date") == ["H0308@0"])
        #expect(Fixture.errors("localdate(trigger.at) == local.date") == ["H0307@0"])
        #expect(Fixture.errors("days(trigger.at, local.date) >= 7") == ["H0326@5"])
        #expect(Fixture.errors("days(1, 2) >= 7") == ["H0326@5", "H0326@8"])
        #expect(Fixture.errors("days(local.date) >= 7") == ["H0308@0"])
        #expect(Fixture.errors("days(date('2026-03-01'), local.date) >= 7d") == ["H0309@0"])
        #expect(Fixture.errors("localDate(trigger.at) == trigger.at") == ["H0309@0"])
    }

    @Test func theMessagesSayWhatToWrite() {
        let instant = Fixture.compile("days(trigger.at, local.date) >= 7").1.first?.message
        #expect(instant == "`days()` counts days between two dates, and `trigger.at` is an instant: write `localDate(trigger.at)`")
        let date = Fixture.compile("localDate(local.date) == local.date").1.first?.message
        #expect(date == "`localDate()` needs an instant, but `local.date` is already a date: use it as it is")
        #expect(Fixture.compile("localdate(trigger.at) == local.date").1.first?.suggestion == "localDate")
    }

    @Test func readsAreListed() {
        let (compiled, _) = Fixture.compile("has(state.lastOpenedAt) && days(localDate(state.lastOpenedAt), local.date) >= 7")
        #expect(compiled?.referencedPaths == [["state", "lastOpenedAt"], ["local", "date"]])
        #expect(compiled?.requiredPaths == [["local", "date"]])
    }
}
