public import HeraldSyntax
import HeraldContract
import HeraldEngine
import Foundation

/// Reads `<policy-dir>/tests/*.yaml` into test cases, strictly: unknown keys, wrong shapes,
/// duplicate names, `when`/`then` lists of different lengths and instants without a UTC offset
/// are diagnostics (H06xx) at their line and column.
///
/// A test entry with such an error is kept, as an invalid case carrying its diagnostics
/// (`PolicyTestCase.problems`), so that it counts as failed in its place instead of silently
/// leaving the totals; a file that cannot be read into entries at all is one invalid case.
public enum PolicyTestLoader {
    static let testKeys = ["name", "description", "given", "when", "then"]
    /// Request fields a `given` or `when` may set (the decision request's own names).
    static let requestKeys = ["type", "at", "now", "user", "prefs", "permission", "state", "params", "subject", "history", "prompt",
                              "plan", "reconcile", "pending", "horizon", "events"]
    /// Keys that say what a step is or what happens before it: a step's `when` only.
    static let stepOnlyKeys = ["prompt", "plan", "reconcile", "pending", "horizon", "events"]
    /// `then` shorthands for `notification.<key>`.
    static let notificationKeys = ["title", "subtitle", "body", "lockscreen", "link", "threadId", "interruptionLevel", "badge"]
    /// Request fields a prompt step (`when: { prompt: true, … }`) may set: a prompt request has no trigger.
    static let promptRequestKeys = ["now", "user", "prefs", "permission", "state", "history", "events"]
    /// Fields of a prompt decision a prompt step's `then` may check.
    static let promptDecisionKeys = ["prompt", "reason", "rule", "policy"]
    static let decisionKeys = ["action", "reason", "deliverAt", "localDeliverAt", "type", "category", "channel", "key", "subject",
                               "batch", "fallback", "notification", "rule", "cap", "policy", "localTime", "localDate", "channels", "requestError"]
                               + notificationKeys

    /// Loads every test file of a policy directory (`tests/` beside `policy.yaml`).
    public static func load(directory: String) -> PolicyTestSuite {
        let testsDir = directory.hasSuffix("/") ? directory + "tests" : directory + "/tests"
        var diagnostics = Diagnostics()
        var sources: [String: SourceFile] = [:]
        var cases: [PolicyTestCase] = []
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: testsDir)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
        for name in names {
            let path = testsDir + "/" + name
            guard let data = fm.contents(atPath: path) else {
                diagnostics.error(.unreadableFile, "cannot read `\(path)`", at: nil)
                continue
            }
            let file = SourceFile(path: path, bytes: Array(data))
            sources[path] = file
            cases.append(contentsOf: parse(file, diagnostics: &diagnostics))
        }
        if cases.isEmpty && !diagnostics.hasErrors {
            diagnostics.warning(.testNoTests, "no tests in `\(testsDir)`", at: nil)
        }
        markDuplicateNames(&cases, diagnostics: &diagnostics)
        return PolicyTestSuite(directory: directory, cases: cases, diagnostics: diagnostics, sources: sources)
    }

    /// H0603 on every test named like one before it (across the bundle's files): the later
    /// one becomes invalid, with a note pointing at the first. An entry already invalid is
    /// left as it is (it fails anyway; two unnamed entries are both `(test 1)` in their files).
    static func markDuplicateNames(_ cases: inout [PolicyTestCase], diagnostics: inout Diagnostics) {
        var seen: [String: SourceSpan] = [:]
        for index in cases.indices {
            let test = cases[index]
            if let first = seen[test.name], test.isValid {
                let duplicate = Diagnostic(.testDuplicateName, "two tests are named `\(test.name)`", at: test.span,
                                           notes: [Diagnostic.Note("the first is here", span: first)])
                diagnostics.append(duplicate)
                cases[index].problems.append(duplicate)
                cases[index].steps = []
            } else if seen[test.name] == nil {
                seen[test.name] = test.span
            }
        }
    }

    /// Parses one test file: every entry of its `tests:` list in order, invalid ones included,
    /// preceded by one invalid case named `(file <name>)` when the file itself has errors
    /// outside any entry (YAML errors, an unknown top-level key, `tests` not a list).
    public static func parse(_ file: SourceFile, diagnostics: inout Diagnostics) -> [PolicyTestCase] {
        var fileProblems = Diagnostics()
        var cases: [PolicyTestCase] = []
        let read = YAMLReader.read(file)
        fileProblems.append(contentsOf: read.diagnostics)
        if !read.diagnostics.hasErrors, let root = read.root {
            if let top = root.mapping {
                var number = 0
                for pair in top {
                    guard pair.key.value == "tests" else {
                        fileProblems.error(.testUnknownKey, "unknown key `\(pair.key.value)` in a test file", at: pair.key.span,
                                           suggestion: Suggestions.closest(to: pair.key.value, in: ["tests"]))
                        continue
                    }
                    guard let items = pair.value.sequence else {
                        fileProblems.error(.testFileStructure, "`tests` must be a list of tests", at: pair.value.span)
                        continue
                    }
                    for item in items {
                        number += 1
                        cases.append(entry(item, number: number, diagnostics: &diagnostics))
                    }
                }
            } else {
                fileProblems.error(.testFileStructure, "a test file is a mapping with a `tests:` list", at: root.span)
            }
        }
        diagnostics.append(contentsOf: fileProblems)
        let errors = fileProblems.items.filter { $0.severity == .error }
        guard !errors.isEmpty else { return cases }
        let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
        let start = SourceLocation(path: file.path, line: 1, column: 1)
        let whole = PolicyTestCase(name: "(file \(name))", span: errors[0].span ?? SourceSpan(start: start, end: start),
                                   given: .object([]), steps: [], problems: errors)
        return [whole] + cases
    }

    /// One entry of a `tests:` list: the test, or an invalid case carrying the errors found in
    /// it (named `(test <n>)` when it has no usable name).
    static func entry(_ node: YAMLNode, number: Int, diagnostics: inout Diagnostics) -> PolicyTestCase {
        var problems = Diagnostics()
        let parsed = parseCase(node, diagnostics: &problems)
        diagnostics.append(contentsOf: problems)
        let errors = problems.items.filter { $0.severity == .error }
        if let parsed, errors.isEmpty { return parsed }
        let nameNode = node["name"]
        let written = nameNode?.scalar?.value ?? ""
        return PolicyTestCase(name: written.isEmpty ? "(test \(number))" : written, span: nameNode?.span ?? node.span,
                              given: .object([]), steps: [], problems: errors)
    }

    static func parseCase(_ node: YAMLNode, diagnostics: inout Diagnostics) -> PolicyTestCase? {
        guard let pairs = node.mapping else {
            diagnostics.error(.testFileStructure, "a test is a mapping with `name`, `given`, `when` and `then`", at: node.span)
            return nil
        }
        for pair in pairs where !testKeys.contains(pair.key.value) {
            diagnostics.error(.testUnknownKey, "unknown key `\(pair.key.value)` in a test", at: pair.key.span,
                              suggestion: Suggestions.closest(to: pair.key.value, in: testKeys))
        }
        guard let nameNode = node["name"], let name = nameNode.scalar?.value, !name.isEmpty else {
            diagnostics.error(.testFileStructure, "a test needs a `name`", at: node.span)
            return nil
        }
        var ok = true
        var given = JSON.object([])
        if let g = node["given"] {
            if let json = requestObject(g, what: "given", diagnostics: &diagnostics) { given = json } else { ok = false }
            if let key = g.mapping?.first(where: { $0.key.value == "prompt" })?.key {
                diagnostics.error(.testUnknownKey, "`prompt` belongs in a step's `when`, not in `given`", at: key.span)
                ok = false
            }
            for pair in g.mapping ?? [] where pair.key.value != "prompt" && stepOnlyKeys.contains(pair.key.value) {
                diagnostics.error(.testStepKind, "`\(pair.key.value)` belongs in a step's `when`, not in `given`", at: pair.key.span)
                ok = false
            }
        }
        guard let whenNode = node["when"], let thenNode = node["then"] else {
            diagnostics.error(.testFileStructure, "test `\(name)` needs both `when` and `then`", at: nameNode.span)
            return nil
        }
        let whens = whenNode.sequence ?? [whenNode]
        let thens = thenNode.sequence ?? [thenNode]
        if (whenNode.sequence != nil) != (thenNode.sequence != nil) || whens.count != thens.count {
            diagnostics.error(.testStepMismatch,
                              "test `\(name)` has \(whens.count) trigger(s) in `when` but \(thens.count) expectation block(s) in `then`; give one `then` per trigger",
                              at: thenNode.span)
            return nil
        }
        var steps: [PolicyTestCase.Step] = []
        var kinds: [PolicyTestCase.Step.Kind?] = []
        for (w, t) in zip(whens, thens) {
            let kind = stepKind(w, diagnostics: &diagnostics)
            kinds.append(kind)
            guard let when = requestObject(w, what: "when", diagnostics: &diagnostics) else { ok = false; continue }
            guard let isPrompt = promptStep(w, diagnostics: &diagnostics), let kind else { ok = false; continue }
            guard let events = parseEvents(w["events"], diagnostics: &diagnostics),
                  stepRequestProblems(w, kind: kind, diagnostics: &diagnostics) else { ok = false; continue }
            let context = ThenContext(kind: kind, step: kinds.count - 1, triggerSteps: Set(kinds.indices.filter { kinds[$0] == .trigger }))
            let keys = isPrompt ? promptDecisionKeys : decisionKeys
            guard let expectations = parseThen(t, keys: keys, context: context, diagnostics: &diagnostics) else { ok = false; continue }
            let request = JSON.object((when.members ?? []).filter { $0.key != "events" })
            steps.append(PolicyTestCase.Step(when: request, expectations: expectations, span: w.span, kind: kind, events: events))
        }
        guard ok else { return nil }
        return PolicyTestCase(name: name, span: nameNode.span, given: given, steps: steps)
    }

    static func requestObject(_ node: YAMLNode, what: String, diagnostics: inout Diagnostics) -> JSON? {
        guard let pairs = node.mapping else {
            diagnostics.error(.testFileStructure, "`\(what)` must be a mapping of request fields", at: node.span)
            return nil
        }
        var ok = true
        for pair in pairs where !requestKeys.contains(pair.key.value) {
            diagnostics.error(.testUnknownKey, "unknown request field `\(pair.key.value)` in `\(what)`", at: pair.key.span,
                              suggestion: Suggestions.closest(to: pair.key.value, in: requestKeys))
            ok = false
        }
        for pair in pairs where instantRequestKeys.contains(pair.key.value) {
            if let problem = instantProblem(pair.value, field: pair.key.value, nullMeansAbsent: false) {
                diagnostics.append(problem)
                ok = false
            }
        }
        return ok ? JSON(yaml: node) : nil
    }

    /// Request fields that are instants.
    static let instantRequestKeys: Set<String> = ["at", "now"]
    /// `then` fields that are instants (`batch.flushAt` is checked inside `batch`).
    static let instantDecisionKeys: Set<String> = ["deliverAt", "localDeliverAt"]

    /// H0607 unless `node` is an RFC 3339 date-time with a UTC offset (`Z` or `±hh:mm`), or
    /// (in `then`) null for "absent". An instant without an offset would be compared with the
    /// decision's instant and fail confusingly ("expected 2026-03-10T23:00:00, got
    /// 2026-03-10T23:00:00Z"), so it is a mistake in the test file, reported where it is written.
    static func instantProblem(_ node: YAMLNode, field: String, nullMeansAbsent: Bool) -> Diagnostic? {
        if nullMeansAbsent && node.isNull { return nil }
        guard let text = node.scalar?.value, !node.isNull else {
            return Diagnostic(.testInvalidInstant, "`\(field)` must be an instant like `2026-03-10T23:00:00-04:00`, not \(node.shapeDescription)",
                              at: node.span)
        }
        if RFC3339.parse(text) != nil { return nil }
        if RFC3339.parse(text + "Z") != nil {
            return Diagnostic(.testInvalidInstant, "`\(field)` instant `\(text)` has no UTC offset", at: node.span,
                              notes: [Diagnostic.Note("write the offset it is meant in, such as `\(text)-04:00`, or `\(text)Z` for UTC; `localTime` and `localDate` check the user's wall clock")])
        }
        return Diagnostic(.testInvalidInstant, "`\(field)` must be an RFC 3339 instant with a UTC offset, not `\(text)`", at: node.span,
                          notes: [Diagnostic.Note("for example `2026-03-10T23:00:00-04:00` or `2026-03-11T03:00:00Z`")])
    }

    /// Whether a `when` is a prompt step (`prompt: true`); nil when it is written wrongly
    /// (`prompt` not `true`, or a trigger field in a prompt step).
    static func promptStep(_ node: YAMLNode, diagnostics: inout Diagnostics) -> Bool? {
        guard let pairs = node.mapping, let flag = pairs.first(where: { $0.key.value == "prompt" }) else { return false }
        guard JSON(yaml: flag.value) == .bool(true) else {
            diagnostics.error(.testFileStructure, "`prompt` in `when` must be `true` (a prompt step); leave it out for a trigger",
                              at: flag.value.span)
            return nil
        }
        var ok = true
        for pair in pairs where pair.key.value != "prompt" && !promptRequestKeys.contains(pair.key.value) {
            diagnostics.error(.testUnknownKey, "request field `\(pair.key.value)` does not apply to a prompt step", at: pair.key.span,
                              notes: [Diagnostic.Note("a prompt step may set " + promptRequestKeys.map { "`\($0)`" }.joined(separator: ", "))])
            ok = false
        }
        return ok ? true : nil
    }

    static func parseThen(_ node: YAMLNode, keys decisionKeys: [String] = decisionKeys, context: ThenContext = ThenContext(),
                          diagnostics: inout Diagnostics) -> [Expectation]? {
        guard let pairs = node.mapping else {
            diagnostics.error(.testFileStructure, "`then` must be a mapping of decision fields", at: node.span)
            return nil
        }
        var result: [Expectation] = []
        var ok = true
        for pair in pairs {
            let key = pair.key.value
            switch resultExpectation(pair, keys: decisionKeys, context: context, diagnostics: &diagnostics) {
            case .handled(let expectations?): result += expectations; continue
            case .handled(nil): ok = false; continue
            case .notMine: break
            }
            guard decisionKeys.contains(key) else {
                diagnostics.error(.testUnknownKey, "unknown decision field `\(key)` in `then`", at: pair.key.span,
                                  suggestion: Suggestions.closest(to: key, in: decisionKeys))
                ok = false
                continue
            }
            if instantDecisionKeys.contains(key), let problem = instantProblem(pair.value, field: key, nullMeansAbsent: true) {
                diagnostics.append(problem)
                ok = false
                continue
            }
            if key == "batch", let flushAt = pair.value["flushAt"],
               let problem = instantProblem(flushAt, field: "batch.flushAt", nullMeansAbsent: true) {
                diagnostics.append(problem)
                ok = false
                continue
            }
            switch key {
            case "channels" where pair.value.mapping != nil:
                // One block per channel of a `delivery: all` type (docs/testing.md).
                for channelPair in pair.value.mapping ?? [] {
                    var inChannel = context
                    inChannel.inChannel = true
                    guard let inner = parseThen(channelPair.value, keys: decisionKeys.filter { $0 != "channels" }, context: inChannel,
                                                diagnostics: &diagnostics) else {
                        ok = false
                        continue
                    }
                    result += inner.map { e in
                        var e = e
                        e.channel = channelPair.key.value
                        return e
                    }
                }
            case "localTime":
                result.append(Expectation(key: key, check: .localTime, expected: JSON(yaml: pair.value), span: pair.value.span))
            case "localDate":
                result.append(Expectation(key: key, check: .localDate, expected: JSON(yaml: pair.value), span: pair.value.span))
            case _ where notificationKeys.contains(key):
                result.append(Expectation(key: key, check: .equals(path: ["notification", key]), expected: JSON(yaml: pair.value), span: pair.value.span))
            case "requestError" where pair.value.scalar != nil:
                // `requestError: prefs.maxPerDay`: the request is refused with a problem at that path.
                result.append(Expectation(key: key, check: .equals(path: [key, "path"]), expected: JSON(yaml: pair.value), span: pair.value.span))
            case "rule" where pair.value.scalar != nil:
                result.append(Expectation(key: "rule", check: .equals(path: ["rule", "id"]), expected: JSON(yaml: pair.value), span: pair.value.span))
            default:
                flatten(pair.value, path: [key], into: &result)
            }
        }
        return ok ? result : nil
    }

    /// Nested mappings (`notification: { body: … }`, `batch: { group: … }`) check each leaf.
    static func flatten(_ node: YAMLNode, path: [String], into result: inout [Expectation]) {
        if let pairs = node.mapping {
            for pair in pairs { flatten(pair.value, path: path + [pair.key.value], into: &result) }
        } else {
            result.append(Expectation(key: path.joined(separator: "."), check: .equals(path: path), expected: JSON(yaml: node), span: node.span))
        }
    }
}
