import Testing
import HeraldSyntax
@testable import HeraldPolicy

private func compile(_ text: String, _ allowed: [String: ValueType] = ["count": .int, "name": .string, "kind": .enumeration(EnumType(cases: ["up", "down"])), "flag": .bool]) -> (MessageTemplate?, Diagnostics) {
    var diagnostics = Diagnostics()
    let scalar = YAMLScalar(value: text, style: .plain, positions: ScalarPositions(start: SourceLocation(path: "t.yaml", line: 1, column: 10, offset: 9)))
    let span = SourceSpan(start: SourceLocation(path: "t.yaml", line: 1, column: 10), end: SourceLocation(path: "t.yaml", line: 1, column: 10 + text.count))
    let t = MessageTemplate.compile(scalar, span: span, allowed: allowed, diagnostics: &diagnostics)
    return (t, diagnostics)
}

private func render(_ text: String, _ values: [String: Value]) -> String? {
    compile(text).0?.render(values)
}

private func firstError(_ text: String) -> String? {
    let d = compile(text).1.first
    return d.map { "\($0.code.id):\($0.span?.start.column ?? 0)" }
}

@Suite("Copy templates")
struct TemplateTests {
    @Test func literalAndPlaceholders() {
        #expect(render("Time to practice.", [:]) == "Time to practice.")
        #expect(render("Hi {name}!", ["name": .string("Ana")]) == "Hi Ana!")
        #expect(render("Hi { name }!", ["name": .string("Ana")]) == "Hi Ana!")
        #expect(render("Hi {name}!", [:]) == "Hi !")
        #expect(compile("{name} and {count} and {name}").0?.placeholders == ["name", "count"])
    }

    @Test(arguments: [(0, "no items"), (1, "1 item"), (2, "2 items"), (11, "11 items")])
    func pluralSelection(_ n: Int, _ expected: String) {
        #expect(render("{count, plural, =0 {no items} one {# item} other {# items}}", ["count": .int(n)]) == expected)
    }

    @Test func exactBeatsKeyword() {
        #expect(render("{count, plural, =1 {just one} one {# item} other {# items}}", ["count": .int(1)]) == "just one")
    }

    @Test func selectOnEnumStringAndBool() {
        let t = "{kind, select, up {Up} down {Down} other {Same}}"
        #expect(render(t, ["kind": .string("up")]) == "Up")
        #expect(render(t, ["kind": .string("sideways")]) == "Same")
        #expect(render("{flag, select, true {Yes} other {No}}", ["flag": .bool(true)]) == "Yes")
        #expect(render("{name, select, Ana {Hi Ana} other {Hello}}", ["name": .string("Bo")]) == "Hello")
    }

    @Test func nestedPluralInsideSelect() {
        let t = "{kind, select, up {Up {count, plural, one {# point} other {# points}}} other {Changed}}"
        #expect(render(t, ["kind": .string("up"), "count": .int(3)]) == "Up 3 points")
        #expect(render(t, ["kind": .string("up"), "count": .int(1)]) == "Up 1 point")
    }

    @Test func quotingFollowsICU() {
        #expect(render("It''s {name}", ["name": .string("Ana")]) == "It's Ana")
        #expect(render("Use '{name}' literally", [:]) == "Use {name} literally")
        #expect(render("Don't worry", [:]) == "Don't worry")
        #expect(render("{count, plural, other {'#' is # }}", ["count": .int(2)]) == "# is 2 ")
    }

    @Test func renderingOfOtherValueKinds() {
        #expect(TemplatePart.text(of: .instant(0)) == "1970-01-01T00:00:00Z")
        #expect(TemplatePart.text(of: .instant(1_773_108_000)) == "2026-03-10T02:00:00Z")
        // Four-digit years (one writer of instants, `InstantText`).
        #expect(TemplatePart.text(of: .instant(-62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(TemplatePart.text(of: .instant(-30_610_224_000)) == "1000-01-01T00:00:00Z")
        #expect(TemplatePart.text(of: .instant(-30_641_760_000)) == "0999-01-01T00:00:00Z")
        #expect(TemplatePart.text(of: .time(7 * 3600 + 5 * 60)) == "07:05")
        #expect(TemplatePart.text(of: .date(20_522)) == "2026-03-10")
        #expect(TemplatePart.text(of: .weekday(7)) == "sun")
        #expect(TemplatePart.text(of: .list([.int(1), .string("a")])) == "1, a")
    }

    @Test func errorsPointAtTheirColumn() {
        #expect(firstError("Hi {nmae}") == "H0421:14")
        #expect(compile("Hi {nme}").1.first?.suggestion == "name")
        #expect(firstError("Hi {name") == "H0420:13")
        #expect(firstError("Hi name}") == "H0420:17")
        #expect(firstError("Hi {}") == "H0420:13")
        #expect(firstError("{count, plural, one {# item}}") == "H0422:10")
        #expect(firstError("{count, number}") == "H0423:18")
        #expect(firstError("{name, plural, other {x}}") == "H0424:11")
        #expect(firstError("{count, select, other {x}}") == "H0424:11")
        #expect(firstError("{count, plural, onee {x} other {y}}") == "H0425:26")
        #expect(firstError("{count, plural, one {x} one {y} other {z}}") == "H0425:34")
        #expect(firstError("{count, plural, one x other {y}}") == "H0420:26")
        #expect(firstError("{count, plural, one {x} other {y}") == "H0420:10")
    }

    @Test func parserNeverTrapsOnRandomText() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let alphabet = Array("{}',# abcountpluralselectother=01".unicodeScalars)
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int(next() % 40) { text.unicodeScalars.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
            let (t, d) = compile(text)
            #expect(t != nil || d.hasErrors)
            _ = t?.render(["count": .int(2), "name": .string("x")])
        }
        // Deep nesting is bounded.
        let deep = String(repeating: "{count, plural, other {", count: 40) + String(repeating: "}}", count: 40)
        #expect(compile(deep).1.hasErrors)
    }
}

@Suite("Route templates")
struct RouteTemplateTests {
    func route(_ url: String, _ params: [String: ValueType], scheme: String? = "demo") -> (RouteTemplate?, Diagnostics) {
        var d = Diagnostics()
        let scalar = YAMLScalar(value: url, style: .plain, positions: ScalarPositions(start: SourceLocation(path: "r.yaml", line: 1, column: 1)))
        let r = RouteTemplate.compile(scalar, span: SourceSpan(at: SourceLocation(path: "r.yaml", line: 1, column: 1)), declared: params, scheme: scheme, diagnostics: &d)
        return (r, d)
    }

    @Test func rendersWithPercentEncoding() throws {
        let r = try #require(route("demo://practice/session?id={id}&q={q}", ["id": .string, "q": .string]).0)
        #expect(r.params == ["id", "q"])
        #expect(r.render(["id": "a b/c?d#e&f", "q": "🎵"]) == "demo://practice/session?id=a%20b%2Fc%3Fd%23e%26f&q=%F0%9F%8E%B5")
        #expect(r.render(["id": "Az09-._~"]) == "demo://practice/session?id=Az09-._~&q=")
    }

    @Test func httpsIsAlwaysAllowed() {
        #expect(route("https://example.com/help", [:]).0 != nil)
        #expect(route("handz://home", [:]).1.first?.code == .routeScheme)
        #expect(route("anything://x", [:], scheme: nil).0 != nil)
    }

    @Test func paramsMustMatchTheURL() {
        #expect(route("demo://x/{id}", [:]).1.first?.code == .routeUndeclaredParam)
        #expect(route("demo://x/{idd}", ["id": .string]).1.first?.suggestion == "id")
        #expect(route("demo://x", ["id": .string]).1.first?.code == .routeUnusedParam)
        #expect(route("demo://x/{id", ["id": .string]).1.first?.code == .templateSyntax)
        #expect(route("demo://x/}", [:]).1.first?.code == .templateSyntax)
    }

    // MARK: The compiled program

    @Test func numbersInDecimal() {
        let t = "{count, plural, one {# item} other {# items}} / {count}"
        for (n, text) in [(0, "0 items / 0"), (1, "1 item / 1"), (10, "10 items / 10"), (-7, "-7 items / -7"),
                          (Int.max, "\(Int.max) items / \(Int.max)"), (Int.min, "\(Int.min) items / \(Int.min)")] {
            #expect(render(t, ["count": .int(n)]) == text)
        }
    }

    @Test func missingPluralValueTakesOtherWithoutNumber() {
        #expect(render("{count, plural, one {# item} other {some#}}", [:]) == "some")
        #expect(render("a{name}b{count}c", [:]) == "abc")
    }

    @Test func longCopyLeavesTheStackBuffer() {
        let long = String(repeating: "é🎵x", count: 200)  // 1,400 UTF-8 bytes
        #expect(render("<{name}>", ["name": .string(long)]) == "<\(long)>")
        let text = String(repeating: "0123456789", count: 60)
        #expect(render(text + "{name}", ["name": .string("!")]) == text + "!")
    }

    @Test func byIndexFollowsPlaceholderOrder() throws {
        let t = try #require(compile("{name}: {count, plural, one {# item} other {# items}} {name}").0)
        #expect(t.placeholders == ["name", "count"])
        let values: [Value] = [.string("Ana"), .int(3)]
        #expect(t.render(byIndex: { values[$0] }) == "Ana: 3 items Ana")
        #expect(t.render(byIndex: { _ in nil }) == ":  items ")  // no count: `other`, without a number
    }

    @Test func valuesOtherThanTextAndNumbers() throws {
        let t = try #require(compile("{name}", ["name": .list(.string)]).0)
        #expect(t.render(["name": .list([.string("a"), .string("b")])]) == "a, b")
        #expect(render("{flag, select, true {on} other {off}}", ["flag": .bool(false)]) == "off")
    }
}

