// Fuzz target: copy templates (HeraldPolicy `MessageTemplate.compile` + `render`) and
// deep-link route templates (`RouteTemplate.compile` + `render`, percent-encoding). The input
// is the template's text, then optionally a NUL byte and bytes that choose the values it is
// rendered with. See docs/fuzzing.md.
import FuzzSupport
import HeraldPolicy
import HeraldSyntax

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Seeds: every copy template, thread id, subject and key template, and route url of the
    // shipped YAML files and fixtures.
    Seeds.writeIfRequested {
        Seeds.scalars(under: ["title", "subtitle", "body", "lockscreen", "copy", "threadId", "subject",
                              "idempotencyKey", "key", "url"],
                      nested: ["copy"]).map { Array($0.utf8) }
    }
    return 0
}

/// The params a template may name, one of every type (copy may also name built-ins such as
/// `count` and `subject`, which the compiler passes the same way).
let allowed: [String: ValueType] = [
    "count": .int, "name": .string, "premium": .bool, "window": .duration, "scheduledAt": .instant,
    "startsAt": .time, "day": .date, "weekday": .weekday,
    "tier": .enumeration(EnumType(cases: ["free", "pro", "trial"])), "tags": .list(.string),
    "subject": .optional(.string), "first": .string, "type": .string,
    // Group copy: the first member's params (dotted names) and the others' count (P11).
    "first.name": .optional(.string), "first.count": .int, "others": .int,
]
/// A route's declared params.
let routeParams: [String: ValueType] = ["id": .string, "filter": .string]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (textBytes, valueBytes) = Fuzz.split(Fuzz.bytes(data, size))
    let text = String(decoding: textBytes, as: UTF8.self)
    let length = text.utf8.count
    let start = SourceLocation(path: "<template>", line: 1, column: 1, offset: 0)
    let scalar = YAMLScalar(value: text, style: .plain, positions: ScalarPositions(start: start))
    let span = SourceSpan(start: start, end: scalar.location(ofValueOffset: length))
    var source = ValueSource(valueBytes)

    var diagnostics = Diagnostics()
    if let template = MessageTemplate.compile(scalar, span: span, allowed: allowed, diagnostics: &diagnostics) {
        if diagnostics.hasErrors { Fuzz.fail("a template compiled with errors: \(diagnostics.items)") }
        checkMessage(template, text: text, source: &source)
    } else if !diagnostics.hasErrors {
        Fuzz.fail("no template and no error")
    }
    for diagnostic in diagnostics.items {
        if let span = diagnostic.span { SpanChecks.check(span, withinLength: length, "\(diagnostic.code.id) `\(diagnostic.message)`") }
    }

    var routeDiagnostics = Diagnostics()
    if let route = RouteTemplate.compile(scalar, span: span, declared: routeParams, scheme: "demo", diagnostics: &routeDiagnostics) {
        if routeDiagnostics.hasErrors { Fuzz.fail("a route compiled with errors: \(routeDiagnostics.items)") }
        checkRoute(route, source: &source)
    } else if !routeDiagnostics.hasErrors {
        Fuzz.fail("no route and no error")
    }
    for diagnostic in routeDiagnostics.items {
        if let span = diagnostic.span { SpanChecks.check(span, withinLength: length, "\(diagnostic.code.id) `\(diagnostic.message)`") }
    }
    return 0
}

func checkMessage(_ template: MessageTemplate, text: String, source: inout ValueSource) {
    for name in template.placeholders where allowed[name] == nil {
        Fuzz.fail("placeholder `\(name)` is not an allowed name")
    }
    // (Not the converse: an empty template, or one of several text parts, has no `literal`
    // and renders through its program.)
    if template.literal != nil, !template.isLiteral {
        Fuzz.fail("a literal template with placeholders \(template.placeholders)")
    }
    // Values as the engine supplies them: of the declared type, sometimes missing.
    var values: [String: Value] = [:]
    for name in template.placeholders {
        guard let type = allowed[name] else { continue }
        if source.byte() % 8 == 7 { continue }
        if let value = source.value(of: type) { values[name] = value }
    }
    // The three ways to render agree (by name from a dictionary, by a lookup, by index).
    let byDictionary = template.render(values)
    let byLookup = template.render { values[$0] }
    let names = template.placeholders
    let byIndex = template.render(byIndex: { values[names[$0]] })
    if byDictionary != byLookup || byDictionary != byIndex {
        Fuzz.fail("`\(text)` renders differently: \(byDictionary.debugDescription), \(byLookup.debugDescription), \(byIndex.debugDescription)")
    }
    if let literal = template.literal, byDictionary != literal {
        Fuzz.fail("the literal template `\(text)` rendered \(byDictionary.debugDescription)")
    }
}

func checkRoute(_ route: RouteTemplate, source: inout ValueSource) {
    var values: [String: String] = [:]
    for name in route.params where source.byte() % 8 != 7 { values[name] = source.string() }
    let rendered = route.render(values)
    let byLookup = route.render { values[$0] }
    if rendered != byLookup { Fuzz.fail("route renders differently: \(rendered) and \(byLookup)") }
    for value in values.values { checkPercentEncoding(value) }
}

/// RFC 3986 percent-encoding: only unreserved characters and `%XX` (uppercase hex), and
/// decoding gives the value's UTF-8 back.
func checkPercentEncoding(_ value: String) {
    let encoded = Array(RouteTemplate.percentEncode(value).utf8)
    var decoded: [UInt8] = []
    var i = 0
    func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    while i < encoded.count {
        let b = encoded[i]
        if b == UInt8(ascii: "%") {
            guard i + 2 < encoded.count, let high = hex(encoded[i + 1]), let low = hex(encoded[i + 2]) else {
                Fuzz.fail("bad escape in \(String(decoding: encoded, as: UTF8.self))")
            }
            decoded.append(high << 4 | low)
            i += 3
            continue
        }
        let unreserved = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
        if !unreserved { Fuzz.fail("reserved byte \(b) left in \(String(decoding: encoded, as: UTF8.self))") }
        decoded.append(b)
        i += 1
    }
    if decoded != Array(value.utf8) { Fuzz.fail("percent-encoding of \(value.debugDescription) does not decode back") }
}
