// Fuzz target: the expression compiler (parse + type check, HeraldPolicy `ExpressionCompiler`)
// and evaluator, in the environment of the shipped catalogs. The input is the expression's
// text, then optionally a NUL byte and bytes that choose the run-time values it reads.
// See docs/fuzzing.md.
import FuzzSupport
import HeraldPolicy
import HeraldSyntax

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Seeds: every expression of the shipped YAML files and fixtures.
    Seeds.writeIfRequested {
        Seeds.scalars(under: ["when", "eligible", "requires", "badge", "max", "score"]).map { Array($0.utf8) }
    }
    _ = Environments.shared
    return 0
}

/// The environments expressions compile in: the five shipped catalogs' `state` and `user`
/// schemas, type, category and channel names, and a set of params of every type, merged
/// (the first bundle wins a name two declare). Compiled twice: with every `state`/`user`
/// field and built-in bound to a slot, as the bundle compiler binds them, and without.
struct Environments {
    let bound: ExpressionEnvironment
    let unbound: ExpressionEnvironment
    /// The path each slot stands for.
    let slotPaths: [Int: [String]]

    static let shared = Environments()

    init() {
        var state: [String: SchemaNode] = [:]
        var user: [String: SchemaNode] = [:]
        var categories: [String] = [], channels: [String] = [], types: [String] = []
        var slots: [[String]: Int] = [:]
        var fields: [[String]] = []
        for shipped in ShippedBundle.all {
            let bundle = shipped.bundle
            state.merge(bundle.state) { first, _ in first }
            user.merge(bundle.user) { first, _ in first }
            categories += bundle.categories.names.filter { !categories.contains($0) }
            channels += bundle.channels.names.filter { !channels.contains($0) }
            types += bundle.types.names.filter { !types.contains($0) }
            for field in bundle.schemaFields where slots[field.path] == nil && Environments.resolve(field.path, in: ["state": .object(state), "user": .object(user)]) == field.type {
                slots[field.path] = fields.count
                fields.append(field.path)
            }
        }
        for builtin in BuiltinRead.allCases { slots[builtin.path] = builtin.rawValue }
        let tier = ValueType.enumeration(EnumType(cases: ["free", "pro", "trial"]))
        let params: [String: ValueType] = [
            "count": .int, "name": .string, "flag": .bool, "window": .duration, "scheduledAt": .instant,
            "startsAt": .time, "day": .date, "weekday": .weekday, "tier": tier, "tags": .list(.string),
            "scores": .list(.int), "days": .list(.weekday), "note": .optional(.string), "dueAt": .optional(.instant),
            "limit": .optional(.int),
        ]
        var unbound = ExpressionEnvironment.standard(state: state, user: user, params: params,
                                                     categories: categories, channels: channels, types: types)
        unbound.slots = [:]
        var bound = unbound
        bound.slots = slots
        self.bound = bound
        self.unbound = unbound
        self.slotPaths = Dictionary(uniqueKeysWithValues: slots.map { ($0.value, $0.key) })
    }

    /// The declared type at `path`, or nil when the path names no value.
    static func resolve(_ path: [String], in roots: [String: SchemaNode]) -> ValueType? {
        var node: SchemaNode = .object(roots)
        for segment in path {
            guard case .object(let fields) = node, let next = fields[segment] else { return nil }
            node = next
        }
        if case .value(let type) = node { return type }
        return nil
    }
}

/// An engine's stand-in: answers every read with a value of the declared type, drawn once per
/// path from the input (so both compiled forms see the same values), and checks that the
/// evaluator reads only what the compiler said it would.
final class Context: EvaluationContext {
    let environment: Environments
    let declared: [[String]]
    var values: [[String]: Value?] = [:]
    var sentCounts: [Int] = []
    var sentIndex = 0
    /// The zone `localDate()` reads: a fixed offset east of UTC, a whole half hour within ±13 h.
    var zoneOffset = 0

    init(expression: CompiledExpression, environment: Environments, source: inout ValueSource) {
        self.environment = environment
        declared = expression.referencedPaths
        for path in expression.referencedPaths {
            // A path that is no value (a group) reads as absent.
            let type = Environments.resolve(path, in: environment.unbound.roots)
            if let type, !type.isOptional, !expression.requiredPaths.contains(path) {
                Fuzz.fail("`\(path.joined(separator: "."))` is declared \(type) but not in requiredPaths")
            }
            values[path] = type.flatMap { source.value(of: $0) }
        }
        for _ in 0..<8 { sentCounts.append(source.below(6)) }
        zoneOffset = (source.below(53) - 26) * 1800
    }

    func value(at path: [String]) -> Value? {
        guard let value = values[path] else {
            Fuzz.fail("read `\(path.joined(separator: "."))`, which referencedPaths \(declared) does not list")
        }
        return value
    }

    func value(slot: Int, path: [String]) -> Value? {
        guard environment.slotPaths[slot] == path else {
            Fuzz.fail("slot \(slot) read for `\(path.joined(separator: "."))`, but it stands for \(environment.slotPaths[slot] ?? [])")
        }
        return value(at: path)
    }

    /// `localDate(t)`: total over every instant (arithmetic may wrap one to `Int.min`).
    func localDate(of instant: Int) -> Int? {
        let (days, rest) = (instant &+ zoneOffset).quotientAndRemainder(dividingBy: 86_400)
        return rest < 0 ? days - 1 : days
    }

    func sent(_ target: String, within window: SentWindow) -> Int {
        if case .duration(let seconds) = window, seconds <= 0 { Fuzz.fail("sent(\(target)) with window \(seconds)s") }
        defer { sentIndex += 1 }
        return sentCounts[sentIndex % sentCounts.count]
    }

    func sent(_ target: String, after instant: Int, statuses: [String]?) -> Int {
        if let statuses, statuses.isEmpty { Fuzz.fail("sent(\(target), since(…)) with an empty status list") }
        defer { sentIndex += 1 }
        return sentCounts[sentIndex % sentCounts.count]
    }

    /// Resets the `sent` answers so a second evaluation sees the same ones.
    func rewind() { sentIndex = 0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (textBytes, valueBytes) = Fuzz.split(Fuzz.bytes(data, size))
    let text = String(decoding: textBytes, as: UTF8.self)
    let environments = Environments.shared
    let length = text.utf8.count

    var diagnostics = Diagnostics()
    let compiled = ExpressionCompiler.compile(text, expecting: nil, in: environments.bound, diagnostics: &diagnostics)
    for diagnostic in diagnostics.items {
        if let span = diagnostic.span { SpanChecks.check(span, withinLength: length, "\(diagnostic.code.id) `\(diagnostic.message)`") }
    }
    var unboundDiagnostics = Diagnostics()
    let unbound = ExpressionCompiler.compile(text, expecting: nil, in: environments.unbound, diagnostics: &unboundDiagnostics)
    guard let compiled else {
        if !diagnostics.hasErrors { Fuzz.fail("no expression and no error") }
        if unbound != nil || unboundDiagnostics != diagnostics { Fuzz.fail("binding slots changed what compiles") }
        return 0
    }
    if diagnostics.hasErrors { Fuzz.fail("an expression compiled with errors: \(diagnostics.items)") }
    guard let unbound, unbound.type == compiled.type, unbound.referencedPaths == compiled.referencedPaths else {
        Fuzz.fail("binding slots changed the compiled expression")
    }
    SpanChecks.check(compiled.span, withinLength: length, "the expression's span")

    // Evaluate both forms against the same values: binding never changes a value.
    var source = ValueSource(valueBytes)
    let context = Context(expression: compiled, environment: environments, source: &source)
    let value = compiled.evaluate(context)
    context.rewind()
    let again = unbound.evaluate(context)
    if value != again { Fuzz.fail("`\(text)`: \(value) with slots, \(again) without") }

    // The value has the compiled type; with every required path present it is not absent
    // (docs/language.md, Evaluation: `null` only comes through optionals).
    if !ValueChecks.value(value, fits: compiled.type) {
        Fuzz.fail("`\(text)` has type \(compiled.type) but evaluated to \(value)")
    }
    let requiredPresent = compiled.requiredPaths.allSatisfy { (context.values[$0] ?? nil) != nil }
    if requiredPresent, !compiled.type.isOptional, value == .null {
        Fuzz.fail("`\(text)` (\(compiled.type)) evaluated to null with every required value present")
    }

    // `evaluateBool` is the bool form compiled separately: the same truth as `evaluate`.
    context.rewind()
    let truth = compiled.evaluateBool(context)
    if truth != (value == .bool(true)) { Fuzz.fail("`\(text)`: evaluateBool \(truth), evaluate \(value)") }
    return 0
}
