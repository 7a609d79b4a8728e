import Testing
import HeraldSyntax
@testable import HeraldPolicy

private let allowed: [String: ValueType] = [
    "at": .instant, "maybe": .optional(.instant), "clock": .time, "day": .date, "count": .int, "name": .string,
]

private func compile(_ text: String) -> (MessageTemplate?, Diagnostics) {
    var diagnostics = Diagnostics()
    let scalar = YAMLScalar(value: text, style: .plain, positions: ScalarPositions(start: SourceLocation(path: "t.yaml", line: 1, column: 10, offset: 9)))
    let span = SourceSpan(start: SourceLocation(path: "t.yaml", line: 1, column: 10), end: SourceLocation(path: "t.yaml", line: 1, column: 10 + text.count))
    return (MessageTemplate.compile(scalar, span: span, allowed: allowed, diagnostics: &diagnostics), diagnostics)
}

/// 2026-03-08T15:05:00Z, a Sunday.
private let sunday1505 = 1_772_982_300

@Suite("Copy templates: local times and dates")
struct TemplateFormatTests {
    @Test(arguments: [
        ("{at, time}", 0, "15:05"), ("{at, time, 24h}", 0, "15:05"), ("{at, time, 12h}", 0, "3:05 PM"),
        ("{at, time, 12h}", -15 * 3600, "12:05 AM"), ("{at, time, 12h}", -3 * 3600 - 5 * 60, "12:00 PM"),
        ("{at, date}", 0, "2026-03-08"), ("{at, date, iso}", 0, "2026-03-08"), ("{at, date, medium}", 0, "Mar 8, 2026"),
        ("{at, date, long}", 0, "March 8, 2026"), ("{at, date, weekday}", 0, "Sunday, March 8"),
        // Nine hours east of UTC the same instant is already Monday.
        ("{at, date, weekday} {at, time}", 9 * 3600, "Monday, March 9 00:05"),
        ("{at, date}", -16 * 3600, "2026-03-07"),
    ])
    func instantInZone(_ text: String, _ offset: Int, _ expected: String) throws {
        let template = try #require(compile(text).0)
        #expect(template.readsZone)
        #expect(template.render({ $0 == "at" ? .instant(sunday1505) : nil }, offset: { _ in offset }) == expected)
    }

    @Test func theOffsetIsAskedAtTheInstantItself() throws {
        let template = try #require(compile("{at, time}").0)
        var asked: [Int] = []
        _ = template.render({ _ in .instant(sunday1505) }, offset: { asked.append($0); return 3600 })
        #expect(asked == [sunday1505])
    }

    @Test func localTimesAndDatesAreNotShifted() throws {
        let t = try #require(compile("{clock, time, 12h} on {day, date, long}").0)
        // 18:30 local; 2026-04-09 is day 20552 since 1970-01-01.
        #expect(t.render({ $0 == "clock" ? .time(18 * 3600 + 30 * 60) : .date(20552) }, offset: { _ in 36_000 }) == "6:30 PM on April 9, 2026")
    }

    @Test func absentOptionalRendersEmptyAndWithoutAZoneShowsUTC() throws {
        let t = try #require(compile("[{maybe, time}]").0)
        #expect(t.render(["maybe": .null]) == "[]")
        #expect(t.render([:]) == "[]")
        #expect(compile("{at, time}").0?.render(["at": .instant(sunday1505)]) == "15:05")
        #expect(compile("{name} {count, plural, one {#} other {#}}").0?.readsZone == false)
    }

    @Test(arguments: [
        ("{count, time}", "H0265"), ("{clock, date}", "H0265"), ("{day, time}", "H0265"), ("{name, date, long}", "H0265"),
        ("{at, time, short}", "H0266"), ("{at, date, full}", "H0266"), ("{at, time, }", "H0266"),
        ("{at, time, 12h", "H0420"), ("{at, number}", "H0423"), ("{nope, time}", "H0421"),
    ])
    func misuse(_ text: String, _ code: String) {
        #expect(compile(text).1.first?.code.id == code)
    }

    @Test func styleSuggestion() {
        #expect(compile("{at, date, lng}").1.first?.suggestion == "long")
    }
}

@Suite("Route templates: optional params")
struct RouteOptionalTests {
    func route(_ url: String, _ params: [String: ValueType]) -> (RouteTemplate?, Diagnostics) {
        var d = Diagnostics()
        let scalar = YAMLScalar(value: url, style: .plain, positions: ScalarPositions(start: SourceLocation(path: "r.yaml", line: 1, column: 1)))
        let r = RouteTemplate.compile(scalar, span: SourceSpan(at: SourceLocation(path: "r.yaml", line: 1, column: 1)), declared: params, scheme: "demo", diagnostics: &d)
        return (r, d)
    }

    @Test(arguments: [
        ("demo://inbox?highlight={id}", [String: String](), "demo://inbox"),
        ("demo://inbox?highlight={id}", ["id": ""], "demo://inbox"),
        ("demo://inbox?highlight={id}", ["id": "a b"], "demo://inbox?highlight=a%20b"),
        ("demo://list/{kind}?highlight={id}&page={page}", ["kind": "k", "page": "2"], "demo://list/k?page=2"),
        ("demo://list/{kind}?highlight={id}&page={page}", ["kind": "k", "id": "x", "page": "2"], "demo://list/k?highlight=x&page=2"),
        ("demo://list/{kind}?page={page}&highlight={id}", ["kind": "k", "page": "2"], "demo://list/k?page=2"),
        ("demo://list/{kind}?page={page}&highlight={id}#top", ["kind": "k", "page": "2"], "demo://list/k?page=2#top"),
        ("demo://list/{kind}?highlight={id}&other={other}", ["kind": "k"], "demo://list/k"),
        ("demo://list/{kind}?highlight={id}&other={other}", ["kind": "k", "other": "o"], "demo://list/k?other=o"),
    ])
    func absentItemsAreLeftOut(_ url: String, _ values: [String: String], _ expected: String) throws {
        let r = try #require(route(url, ["kind": .string, "page": .string, "id": .optional(.string), "other": .optional(.string)]
            .filter { url.contains("{\($0.key)}") }).0)
        #expect(r.render(values) == expected)
    }

    @Test(arguments: [
        "demo://activity/{id}", "demo://activity?id=x{id}", "demo://activity?id={id}x", "demo://activity?{id}",
        "demo://activity#id={id}", "demo://a/{id}?x=1",
    ])
    func misplacedOptionalIsH0267(_ url: String) {
        let (r, d) = route(url, ["id": .optional(.string)])
        #expect(r == nil)
        #expect(d.first?.code.id == "H0267")
    }
}
