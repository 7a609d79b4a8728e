import HeraldSyntax
import HeraldContract
import HeraldEngine

/// Where a `then` block is read: its step's kind, and what `sameAs` may name.
struct ThenContext {
    var kind: PolicyTestCase.Step.Kind = .trigger
    /// 0-based index of the step.
    var step = 0
    /// Indices of the test's trigger steps up to this one.
    var triggerSteps: Set<Int> = []
    /// Inside an entry block of `decisions`/`deliveries`/`batches`.
    var inBlock = false
    /// Inside `not:`.
    var inNot = false
    /// The result list (`decisions`, `deliveries`, `batches`) whose entry block this is.
    var list: String?
    /// Inside a `channels: { <name>: … }` block.
    var inChannel = false
}

/// What `resultExpectation` made of a `then` pair.
enum ThenPart {
    /// The pair is a step-kind construct; nil when it was written wrongly (diagnosed).
    case handled([Expectation]?)
    /// An ordinary decision field: `parseThen` reads it.
    case notMine
}

extension PolicyTestLoader {
    static let planResultKeys = ["decisions", "deliveries", "batches"]
    static let reconcileResultKeys = ["add", "keep", "update", "cancel"]
    static let candidateKeys = ["type", "at", "params", "subject"]
    static let pendingKeys = ["key", "type", "deliverAt", "subject", "channel", "batch", "title", "body", "link", "threadId"]
    static let eventKeys = ["key", "status", "at", "type"]
    static let eventStatuses = HistoryEntry.Status.allCases.filter { $0 != .scheduled }.map(\.rawValue)

    /// The kind of a step's `when`, or nil (H0608) when it names two kinds or is an empty
    /// `events` step with other fields.
    static func stepKind(_ node: YAMLNode, diagnostics: inout Diagnostics) -> PolicyTestCase.Step.Kind? {
        guard let pairs = node.mapping else { return .trigger }
        let names = pairs.map(\.key.value)
        let kinds = ["prompt", "plan", "reconcile"].filter(names.contains)
        if kinds.count > 1 {
            diagnostics.error(.testStepKind, "a step is one of a trigger, a prompt, a plan or a reconcile, but this one says "
                              + kinds.map { "`\($0)`" }.joined(separator: " and "), at: node.span)
            return nil
        }
        switch kinds.first {
        case "prompt": return .prompt
        case "plan": return .plan
        case "reconcile": return .reconcile
        default: return names == ["events"] ? .events : .trigger
        }
    }

    /// Checks the fields only some kinds take (H0608) and the candidates (H0609) and pending
    /// entries (H0610) of plan and reconcile steps; false when something is wrong.
    static func stepRequestProblems(_ node: YAMLNode, kind: PolicyTestCase.Step.Kind, diagnostics: inout Diagnostics) -> Bool {
        var ok = true
        for pair in node.mapping ?? [] {
            let key = pair.key.value
            let planned = kind == .plan || kind == .reconcile
            var misplaced: String?
            if planned && candidateKeys.contains(key) {
                misplaced = "a \(kind) step decides its `\(kind)` candidates; write `\(key)` in each candidate"
            } else if key == "pending" && kind != .reconcile {
                misplaced = "`pending` belongs to a reconcile step (`reconcile: [candidates…]`)"
            } else if key == "horizon" && !planned {
                misplaced = "`horizon` belongs to a plan or reconcile step"
            }
            if let misplaced {
                diagnostics.error(.testStepKind, misplaced, at: pair.key.span)
                ok = false
            }
        }
        if kind == .plan || kind == .reconcile, let list = node[kind == .plan ? "plan" : "reconcile"] {
            ok = candidates(list, diagnostics: &diagnostics) && ok
        }
        if kind == .reconcile, let list = node["pending"] { ok = pending(list, diagnostics: &diagnostics) && ok }
        if kind == .plan || kind == .reconcile, node["now"] == nil {
            diagnostics.error(.testStepKind, "a \(kind) step needs `now` (its candidates have their own `at`)", at: node.span)
            ok = false
        }
        return ok
    }

    static func candidates(_ node: YAMLNode, diagnostics: inout Diagnostics) -> Bool {
        entryList(node, Entries(code: .testCandidates, noun: "a candidate", fieldNoun: "candidate", shape: "{ type, at, params?, subject? }",
                                listShape: "candidates must be a non-empty list of `{ type, at, params?, subject? }`",
                                keys: candidateKeys, required: ["type", "at"], instant: "at", allowsEmpty: false),
                  diagnostics: &diagnostics)
    }

    static func pending(_ node: YAMLNode, diagnostics: inout Diagnostics) -> Bool {
        entryList(node, Entries(code: .testPending, noun: "a pending entry", fieldNoun: "pending", shape: "{ key, type, deliverAt, … }",
                                listShape: "`pending` must be a list of `{ key, type, deliverAt, … }` (`[]` for none)",
                                keys: pendingKeys, required: ["key", "type", "deliverAt"], instant: "deliverAt", allowsEmpty: true),
                  diagnostics: &diagnostics)
    }

    /// How one list of mappings in a step's `when` is shaped (candidates, pending entries).
    struct Entries {
        var code: DiagnosticCode
        /// `a candidate`
        var noun: String
        /// `candidate` in "unknown candidate field"
        var fieldNoun: String
        /// `{ type, at, params?, subject? }`
        var shape: String
        /// The message's start when the node is not a (non-empty) list.
        var listShape: String
        var keys: [String]
        var required: [String]
        /// The field holding an instant with an offset (H0607).
        var instant: String
        var allowsEmpty: Bool
    }

    /// Checks a list of mappings against `entries`: a list (non-empty unless allowed), each
    /// item a mapping with only known keys, the required ones, and an instant with an offset.
    static func entryList(_ node: YAMLNode, _ entries: Entries, diagnostics: inout Diagnostics) -> Bool {
        guard let items = node.sequence, entries.allowsEmpty || !items.isEmpty else {
            diagnostics.error(entries.code, "\(entries.listShape), not \(node.shapeDescription)", at: node.span)
            return false
        }
        var ok = true
        for item in items {
            guard let pairs = item.mapping else {
                diagnostics.error(entries.code, "\(entries.noun) is a mapping `\(entries.shape)`, not \(item.shapeDescription)", at: item.span)
                ok = false
                continue
            }
            for pair in pairs where !entries.keys.contains(pair.key.value) {
                diagnostics.error(entries.code, "unknown \(entries.fieldNoun) field `\(pair.key.value)`", at: pair.key.span,
                                  suggestion: Suggestions.closest(to: pair.key.value, in: entries.keys))
                ok = false
            }
            for required in entries.required where item[required] == nil {
                diagnostics.error(entries.code, "\(entries.noun) needs `\(required)`", at: item.span)
                ok = false
            }
            if let at = item[entries.instant], let problem = instantProblem(at, field: entries.instant, nullMeansAbsent: false) {
                diagnostics.append(problem)
                ok = false
            }
        }
        return ok
    }

    /// A step's `events:` (absent: none); nil when an entry is wrong (H0611).
    static func parseEvents(_ node: YAMLNode?, diagnostics: inout Diagnostics) -> [PolicyTestCase.Event]? {
        guard let node else { return [] }
        guard let items = node.sequence, !items.isEmpty else {
            diagnostics.error(.testEvent, "`events` must be a non-empty list of `{ key, status, at }`, not \(node.shapeDescription)", at: node.span)
            return nil
        }
        var events: [PolicyTestCase.Event] = []
        var ok = true
        for item in items {
            guard let pairs = item.mapping else {
                diagnostics.error(.testEvent, "an event is a mapping `{ key, status, at, type? }`, not \(item.shapeDescription)", at: item.span)
                ok = false
                continue
            }
            for pair in pairs where !eventKeys.contains(pair.key.value) {
                diagnostics.error(.testEvent, "unknown event field `\(pair.key.value)`", at: pair.key.span,
                                  suggestion: Suggestions.closest(to: pair.key.value, in: eventKeys))
                ok = false
            }
            let key = item["key"]?.scalar?.value
            let statusText = item["status"]?.scalar?.value
            let status = statusText.flatMap { eventStatuses.contains($0) ? HistoryEntry.Status(rawValue: $0) : nil }
            if key == nil || key!.isEmpty {
                diagnostics.error(.testEvent, "an event needs the `key` of the notification it happened to", at: item.span)
                ok = false
            }
            if status == nil {
                diagnostics.error(.testEvent, "an event's `status` must be one of " + eventStatuses.map { "`\($0)`" }.joined(separator: ", ")
                                  + (statusText.map { ", not `\($0)`" } ?? ""), at: item["status"]?.span ?? item.span)
                ok = false
            }
            var at: Int?
            if let node = item["at"] {
                if let problem = instantProblem(node, field: "at", nullMeansAbsent: false) {
                    diagnostics.append(problem)
                    ok = false
                } else {
                    at = node.scalar.flatMap { RFC3339.parse($0.value) }
                }
            } else {
                diagnostics.error(.testEvent, "an event needs `at`, when it happened", at: item.span)
                ok = false
            }
            if let key, let status, let at {
                events.append(PolicyTestCase.Event(key: key, status: status, at: at, type: item["type"]?.scalar?.value, span: item.span))
            }
        }
        return ok ? events : nil
    }

    /// Reads the `then` constructs that depend on the step's kind: result lists of plan and
    /// reconcile steps, `not`, a `localTime` range and `batch: { sameAs }`.
    static func resultExpectation(_ pair: YAMLPair, keys: [String], context: ThenContext,
                                  diagnostics: inout Diagnostics) -> ThenPart {
        let key = pair.key.value
        let node = pair.value
        let isResult = planResultKeys.contains(key) || reconcileResultKeys.contains(key)
        let topOfPlan = (context.kind == .plan || context.kind == .reconcile) && !context.inBlock
        if context.kind == .events {
            diagnostics.error(.testResultField, "an `events` step decides nothing; its `then` is `{}`", at: pair.key.span)
            return .handled(nil)
        }
        if topOfPlan {
            if reconcileResultKeys.contains(key) && context.kind == .plan {
                diagnostics.error(.testResultField, "`\(key)` is a reconcile result; a plan step checks `decisions`, `deliveries` and `batches`",
                                  at: pair.key.span)
                return .handled(nil)
            }
            if !isResult {
                guard keys.contains(key) || key == "not" else { return .notMine }
                diagnostics.error(.testResultField, "a \(context.kind) step has no single decision; check `\(key)` inside `decisions: [ … ]` or `deliveries: [ … ]`",
                                  at: pair.key.span)
                return .handled(nil)
            }
            return .handled(resultList(key, node, keys: keys, context: context, diagnostics: &diagnostics))
        }
        // A trigger's decisions as a list (one per channel of a `delivery: all` type), and the
        // batches its test's trigger steps have formed so far, flushed.
        if (key == "decisions" || key == "batches") && context.kind == .trigger && !context.inBlock && !context.inNot
            && !context.inChannel {
            return .handled(resultList(key, node, keys: keys, context: context, diagnostics: &diagnostics))
        }
        if key == "members" {
            return .handled(members(pair, context: context, diagnostics: &diagnostics))
        }
        if isResult {
            diagnostics.error(.testResultField, "`\(key)` is a result of a plan or reconcile step, not of a \(context.inBlock ? "plan entry" : "\(context.kind) step")",
                              at: pair.key.span)
            return .handled(nil)
        }
        switch key {
        case "not":
            guard !context.inNot else {
                diagnostics.error(.testNegation, "`not` inside `not`: write the field itself", at: pair.key.span)
                return .handled(nil)
            }
            guard let inner = node.mapping, !inner.isEmpty else {
                diagnostics.error(.testNegation, "`not` must be a non-empty mapping of decision fields, not \(node.shapeDescription)", at: node.span)
                return .handled(nil)
            }
            var nested = context
            nested.inNot = true
            guard let expectations = parseThen(node, keys: keys, context: nested, diagnostics: &diagnostics) else { return .handled(nil) }
            return .handled(expectations.map { Expectation(key: "not." + $0.key, check: .negated($0.check), expected: $0.expected, span: $0.span) })
        case "localTime" where node.mapping != nil:
            let pairs = node.mapping!
            var bounds: [String: Int] = [:]
            var ok = true
            for p in pairs {
                guard p.key.value == "from" || p.key.value == "to" else {
                    diagnostics.error(.testLocalTimeRange, "unknown key `\(p.key.value)` in a `localTime` range; it takes `from` and `to`", at: p.key.span)
                    ok = false
                    continue
                }
                guard let minutes = p.value.scalar.flatMap({ minutesOfDay($0.value) }) else {
                    diagnostics.error(.testLocalTimeRange, "`localTime.\(p.key.value)` must be a time `HH:MM`", at: p.value.span)
                    ok = false
                    continue
                }
                bounds[p.key.value] = minutes
            }
            guard ok, let from = bounds["from"], let to = bounds["to"] else {
                if ok { diagnostics.error(.testLocalTimeRange, "a `localTime` range needs both `from` and `to`", at: node.span) }
                return .handled(nil)
            }
            return .handled([Expectation(key: "localTime", check: .localTimeRange(from: from, to: to), expected: JSON(yaml: node), span: node.span)])
        case "batch" where node["sameAs"] != nil:
            let sameAs = node["sameAs"]!
            guard !context.inBlock else {
                diagnostics.error(.testSameBatch, "`sameAs` compares trigger steps; in a plan, check the batch in `batches`", at: sameAs.span)
                return .handled(nil)
            }
            guard case .int(let number) = JSON(yaml: sameAs), number >= 1, number - 1 < context.step,
                  context.triggerSteps.contains(number - 1) else {
                diagnostics.error(.testSameBatch, "`sameAs` must be the number of an earlier trigger step (1 to \(context.step)), not `\(sameAs.scalar?.value ?? sameAs.shapeDescription)`",
                                  at: sameAs.span)
                return .handled(nil)
            }
            var result = [Expectation(key: "batch.sameAs", check: .sameBatch(step: number - 1), expected: .int(number), span: sameAs.span)]
            for p in node.mapping ?? [] where p.key.value != "sameAs" { flatten(p.value, path: ["batch", p.key.value], into: &result) }
            return .handled(result)
        default:
            return .notMine
        }
    }

    /// `decisions`/`deliveries`/`batches: [ {…} ]` or `add`/`keep`/`update`/`cancel: [key…]` (H0613).
    static func resultList(_ key: String, _ node: YAMLNode, keys: [String], context: ThenContext,
                           diagnostics: inout Diagnostics) -> [Expectation]? {
        guard let items = node.sequence else {
            let what = planResultKeys.contains(key) ? "a list of decision blocks (`[]` for none)" : "a list of keys (`[]` for none)"
            diagnostics.error(.testResultList, "`\(key)` must be \(what), not \(node.shapeDescription)", at: node.span)
            return nil
        }
        if reconcileResultKeys.contains(key) {
            var ok = true
            for item in items where item.scalar == nil || item.isNull {
                diagnostics.error(.testResultList, "`\(key)` lists idempotency keys, not \(item.shapeDescription)", at: item.span)
                ok = false
            }
            return ok ? [Expectation(key: key, check: .keys(field: key), expected: JSON(yaml: node), span: node.span)] : nil
        }
        var blocks: [[Expectation]] = []
        var nested = context
        nested.inBlock = true
        nested.list = key
        for item in items {
            guard item.mapping != nil else {
                diagnostics.error(.testResultList, "an entry of `\(key)` is a mapping of decision fields, not \(item.shapeDescription)", at: item.span)
                return nil
            }
            guard let block = parseThen(item, keys: keys, context: nested, diagnostics: &diagnostics) else { return nil }
            blocks.append(block)
        }
        guard let match = entryMatch(key, node, blocks: blocks, diagnostics: &diagnostics) else { return nil }
        return [Expectation(key: key, check: .entries(field: key, blocks: blocks, match: match), expected: .int(blocks.count), span: node.span)]
    }

    /// How the entry blocks of a result list find their entries (H0618): by `key` when every
    /// block names one, else by `channel` when every block names one, else by position; a list
    /// where some blocks name it and others do not is an error.
    static func entryMatch(_ key: String, _ node: YAMLNode, blocks: [[Expectation]], diagnostics: inout Diagnostics) -> Expectation.EntryMatch? {
        for (field, match) in [("key", Expectation.EntryMatch.key), ("channel", .channel)] {
            let naming = blocks.filter { block in block.contains { $0.check == .equals(path: [field]) && $0.channel == nil } }.count
            if naming == 0 { continue }
            if naming == blocks.count { return match }
            diagnostics.error(.testResultMatch, "\(naming) of the \(blocks.count) entries of `\(key)` name a `\(field)`: name it in every entry "
                              + "(each is matched to the \(key == "batches" ? "batch" : "decision") with that \(field)) or in none (matched by position)",
                              at: node.span)
            return nil
        }
        return .position
    }

    /// `members: n` in an entry of `batches`: how many members the flushed batch holds (H0617).
    static func members(_ pair: YAMLPair, context: ThenContext, diagnostics: inout Diagnostics) -> [Expectation]? {
        guard context.list == "batches", !context.inNot else {
            diagnostics.error(.testBatchMembers, "`members` counts the members of a flushed batch; write it in an entry of `batches: [ … ]`",
                              at: pair.key.span)
            return nil
        }
        guard case .int(let count) = JSON(yaml: pair.value), count >= 1 else {
            diagnostics.error(.testBatchMembers, "`members` must be a number of members (1 or more), not `\(pair.value.scalar?.value ?? pair.value.shapeDescription)`",
                              at: pair.value.span)
            return nil
        }
        return [Expectation(key: "members", check: .equals(path: ["members"]), expected: .int(count), span: pair.value.span)]
    }

    /// `07:30` → 450; nil unless `HH:MM` with HH < 24 and MM < 60.
    static func minutesOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }
}
