// Fuzz target: the bundle compiler (HeraldPolicy `BundleSections.merge` + `BundleCompiler.compile`
// + `Lints.run`) and the engine built from its result, deciding a request for each type, over an in-memory bundle: the input is
// several YAML files, each starting with a line `#file <path>` (FuzzSupport `BundleText`).
// Files are read and merged as `herald validate` does (catalog files first; YAML errors gate
// the compile). See docs/fuzzing.md.
import FuzzSupport
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSyntax

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Seeds: the five shipped bundles and every bundle of the test fixtures.
    Seeds.writeIfRequested { BundleText.seeds() }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let files = BundleText.split(Fuzz.bytes(data, size))
    guard !files.isEmpty else { return 0 }

    var sources: [String: SourceFile] = [:]
    var order: [String] = []
    var diagnostics = Diagnostics()
    var sections = BundleSections()
    for file in files where sources[file.path] == nil {
        let source = SourceFile(path: file.path, bytes: file.bytes)
        sources[file.path] = source
        order.append(file.path)
        let read = YAMLReader.read(source)
        diagnostics.append(contentsOf: read.diagnostics)
        if let root = read.root { sections.merge(root, diagnostics: &diagnostics) }
    }
    // As the validator: YAML errors (H01xx) gate the compile.
    let yamlClean = !diagnostics.contains { $0.severity == .error && $0.code.id.hasPrefix("H01") }
    var bundle: PolicyBundle?
    if yamlClean {
        let digest = PolicyBundle.fnv1a64(order.sorted().map { sources[$0]!.bytes })
        var compiled = Diagnostics()
        bundle = BundleCompiler.compile(sections, name: "fuzz", digest: digest, files: order.sorted(), diagnostics: &compiled)
        if bundle != nil, compiled.hasErrors { Fuzz.fail("a bundle compiled with errors: \(compiled.items.filter { $0.severity == .error })") }
        if bundle == nil, !compiled.hasErrors { Fuzz.fail("no bundle and no error") }
        diagnostics.append(contentsOf: compiled)
        // As the validator: a merge error (an entry defined twice) makes the bundle invalid too.
        if diagnostics.hasErrors { bundle = nil }
    }
    if let bundle {
        diagnostics.append(contentsOf: Lints.run(bundle))
        checkSpans(of: bundle, in: sources)
        decideSome(bundle, sources: sources)
    }

    SpanChecks.check(diagnostics, in: sources)
    _ = DiagnosticRenderer(format: .text, color: false).render(diagnostics.items, sources: sources)
    return 0
}

/// The compiled model's spans point into the files it came from.
func checkSpans(of bundle: PolicyBundle, in sources: [String: SourceFile]) {
    func check(_ span: SourceSpan?, _ what: @autoclosure () -> String) {
        guard let span else { return }
        guard let file = sources[span.path] else { Fuzz.fail("\(what()) cites `\(span.path)`, which is no input file") }
        SpanChecks.check(span, in: file, what())
    }
    for (name, type) in zip(bundle.types.names, bundle.types.values) {
        check(type.span, "type \(name)")
        check(type.eligible?.span, "type \(name) eligible")
        for param in type.params { check(param.span, "type \(name) param \(param.name)") }
    }
    for field in bundle.schemaFields { check(field.span, "field \(field.path.joined(separator: "."))") }
    for rule in bundle.suppress { check(rule.span, "suppression rule \(rule.id)") }
    for cap in bundle.caps { check(cap.span, "cap \(cap.id)") }
}

/// Decides one request for each of the bundle's first types (the trigger on a DST day in New
/// York, every declared field present, one earlier delivery of the same type in the history)
/// and checks each decision as FuzzDecide does.
func decideSome(_ bundle: PolicyBundle, sources: [String: SourceFile]) {
    let engine = Engine(bundle: bundle)
    var state: [String: JSON] = [:]
    var user: [String: JSON] = ["id": .string("u1")]
    for field in bundle.schemaFields where field.path.count >= 2 {
        let value = sample(field.type)
        if field.path[0] == "state" { put(value, at: field.path.dropFirst(), in: &state) }
        if field.path[0] == "user" { put(value, at: field.path.dropFirst(), in: &user) }
    }
    for type in bundle.types.values.prefix(6) {
        let params = JSON.object(type.params.map { JSON.Member($0.name, sample($0.type)) })
        let json: JSON = [
            "type": .string(type.id), "at": "2026-03-08T06:30:00Z", "now": "2026-03-08T06:30:00Z",
            "user": jsonObject(user), "prefs": ["timezone": "America/New_York"], "permission": "granted",
            "state": jsonObject(state), "params": params, "subject": "s1",
            "history": [["key": "k1", "type": .string(type.id), "deliverAt": "2026-03-08T03:00:00Z", "status": "delivered"]],
        ]
        guard let request = try? DecisionRequest(json: json) else { continue }
        if case .success(let decision) = engine.decide(request, now: request.now) {
            DecisionChecks.check(decision, type: type.id, sources: sources)
        }
    }
}

/// A value of `type` as a request carries it.
func sample(_ type: ValueType) -> JSON {
    switch type {
    case .bool: true
    case .int: 2
    case .string: "x"
    case .duration: 3_600
    case .instant: "2026-03-07T18:00:00Z"
    case .time: "19:00"
    case .date: "2026-03-08"
    case .weekday: "sun"
    case .enumeration(let e): e.cases.first.map(JSON.string) ?? "x"
    case .list(let element): .array([sample(element)])
    case .map(let element): .object([.init("x", sample(element))])
    case .optional(let wrapped): sample(wrapped)
    }
}

func put(_ value: JSON, at path: ArraySlice<String>, in object: inout [String: JSON]) {
    guard let first = path.first else { return }
    if path.count == 1 {
        object[first] = value
        return
    }
    var inner: [String: JSON] = [:]
    for member in object[first]?.members ?? [] { inner[member.key] = member.value }
    put(value, at: path.dropFirst(), in: &inner)
    object[first] = jsonObject(inner)
}

func jsonObject(_ members: [String: JSON]) -> JSON {
    .object(members.keys.sorted().map { JSON.Member($0, members[$0]!) })
}
