public import HeraldSyntax
public import HeraldContract
public import HeraldEngine

/// What one test produced.
public struct PolicyTestResult: Sendable {
    public struct Failure: Sendable {
        /// 0-based step (trigger) index.
        public var step: Int
        /// The `then` key, or `request` when the request itself was rejected.
        public var field: String
        public var expected: String
        public var actual: String
        /// The expectation's place in the test file.
        public var span: SourceSpan
        /// Why the decision came out as it did, when `action` (or a prompt step's `prompt`)
        /// or `reason` differs: `reason opened_recently, rule opened-recently at
        /// policies/handz/policy.yaml:40:7` — so the failure line says why without `explain`.
        public var context: String?

        public init(step: Int, field: String, expected: String, actual: String, span: SourceSpan, context: String? = nil) {
            self.step = step
            self.field = field
            self.expected = expected
            self.actual = actual
            self.span = span
            self.context = context
        }
    }

    public var name: String
    public var span: SourceSpan
    public var failures: [Failure]
    /// Every decision made, in step order (for coverage and `--format json`).
    public var decisions: [Decision]
    /// Every prompt decision made by prompt steps, in step order (for coverage).
    public var prompts: [PromptDecision] = []
    /// The errors that made the test entry invalid: it did not run, and it failed.
    public var problems: [Diagnostic] = []
    /// How many steps the test has (0 when not known): a failure says `[step n]` when more than one.
    public var steps = 0

    public var passed: Bool { failures.isEmpty && problems.isEmpty }
}

/// Runs policy tests against a decision function (normally `Engine.decide`).
///
/// Each step's request is `given` overlaid with the step's `when` (a `when` key replaces the
/// `given` one; `now` defaults to the step's `at`). Steps run in order, and each `schedule` or
/// `batch` decision is appended to the history of the next step as a `scheduled` entry, so a
/// list of triggers sees the caps, dedupe and cooldowns of the ones before it.
public struct PolicyTestRunner: Sendable {
    public typealias Decide = @Sendable (DecisionRequest, Int) -> Result<Decision, RequestErrors>
    public typealias Prompt = @Sendable (PromptRequest, Int) -> Result<PromptDecision, RequestErrors>

    public typealias PlanSet = @Sendable (PlanRequest) -> Result<Plan, RequestErrors>
    public typealias Reconcile = @Sendable (ReconcileRequest) -> Result<(plan: Plan, reconciliation: Reconciliation), RequestErrors>

    let decide: Decide
    let prompt: Prompt?
    let plan: PlanSet?
    let reconcile: Reconcile?
    /// Decides a trigger on every channel (normally `Engine.decideAll`); nil: `decide`.
    var decideAll: (@Sendable (DecisionRequest, Int) -> Result<[Decision], RequestErrors>)?
    /// Flushes a batch's members into the one notification it delivers (normally
    /// `Engine.flush`), for a trigger step's `batches:`; nil: such a step fails.
    /// Given a batch key and every decision of the trigger steps so far, the flushed
    /// notification and how many members it holds.
    var flush: (@Sendable (String, [Decision]) -> (flushed: Decision, members: Int)?)?

    /// - Parameters:
    ///   - decide: decides trigger steps (normally `Engine.decide`).
    ///   - prompt: decides prompt steps (normally `Engine.prompt`); without it a prompt step fails.
    ///   - plan: decides plan steps (normally `Engine.plan`); without it a plan step fails.
    ///   - reconcile: decides reconcile steps (normally `Engine.reconcile`); likewise.
    public init(decide: @escaping Decide, prompt: Prompt? = nil, plan: PlanSet? = nil, reconcile: Reconcile? = nil) {
        self.decide = decide
        self.prompt = prompt
        self.plan = plan
        self.reconcile = reconcile
    }

    /// A runner over one engine: `decide` for triggers, `prompt` for prompt steps.
    public init(engine: Engine) {
        self.init(decide: { engine.decide($0, now: $1) }, prompt: { engine.prompt($0, now: $1) },
                  plan: { engine.plan($0) }, reconcile: { engine.reconcile($0) })
        decideAll = { engine.decideAll($0, now: $1) }
        flush = { key, decisions in
            let members = engine.batchMembers(of: key, among: decisions)
            return engine.flush(key, members: members).map { ($0, members.count) }
        }
    }

    public func run(_ suite: PolicyTestSuite) -> [PolicyTestResult] {
        suite.cases.map(run)
    }

    public func run(_ test: PolicyTestCase) -> PolicyTestResult {
        guard test.isValid else {
            return PolicyTestResult(name: test.name, span: test.span, failures: [], decisions: [], problems: test.problems)
        }
        var failures: [PolicyTestResult.Failure] = []
        var decisions: [Decision] = []
        var prompts: [PromptDecision] = []
        var ledger = FedLedger()
        var stepResults: [Int: JSON] = [:]
        /// The decisions of the trigger steps so far, and their batch keys in order of first appearance.
        var triggerDecisions: [Decision] = []
        var batchKeys: [String] = []
        for (index, step) in test.steps.enumerated() {
            failures += ledger.apply(step.events, step: index)
            switch step.kind {
            case .events:
                continue
            case .prompt:
                let json = Self.promptRequest(given: test.given, when: step.when, fedBack: ledger.history)
                let outcome = runPrompt(json, step: step, index: index)
                if let decision = outcome.decision { prompts.append(decision) }
                failures += outcome.failures
                continue
            case .plan, .reconcile:
                let outcome = runPlan(given: test.given, step: step, index: index, ledger: &ledger)
                decisions += outcome.decisions
                failures += outcome.failures
                continue
            case .trigger:
                break
            }
            let json = Self.request(given: test.given, when: step.when, fedBack: ledger.history)
            let expectsError = step.expectations.contains { $0.key == "requestError" }
            let request: DecisionRequest
            do {
                request = try DecisionRequest(json: json)
            } catch {
                if expectsError {
                    failures += Self.checkRequestError(error, step: step, index: index)
                    continue
                }
                failures.append(.init(step: index, field: "request", expected: "a valid request",
                                      actual: error.description.replacingNewlines, span: step.span))
                break
            }
            let outcome = decideAll.map { $0(request, request.now) } ?? decide(request, request.now).map { [$0] }
            switch outcome {
            case .failure(let errors) where expectsError:
                failures += Self.checkRequestError(errors, step: step, index: index)
            case .success where expectsError:
                failures.append(.init(step: index, field: "requestError", expected: "a request error", actual: "a decision", span: step.span))
            case .failure(let errors):
                failures.append(.init(step: index, field: "request", expected: "a decision",
                                      actual: errors.description.replacingNewlines, span: step.span))
            case .success(let stepDecisions):
                // Several decisions (a `delivery: all` type): unscoped expectations check each,
                // `channels.<name>` ones only that channel's; `decisions: [ … ]` checks the
                // step's decisions as a list.
                let list = JSON.array(stepDecisions.map { $0.json() })
                triggerDecisions += stepDecisions
                for key in stepDecisions.compactMap({ $0.batch?.key }) where !batchKeys.contains(key) { batchKeys.append(key) }
                var flushed: JSON?
                if step.expectations.contains(where: { $0.key == "batches" }) {
                    if let flush {
                        flushed = .array(batchKeys.compactMap { key in
                            flush(key, triggerDecisions).map { Self.flushedJSON($0.flushed, members: $0.members) }
                        })
                    } else {
                        failures.append(.init(step: index, field: "batches", expected: "flushed batches", actual: "this runner flushes no batches",
                                              span: step.span))
                    }
                }
                for decision in stepDecisions {
                    decisions.append(decision)
                    var actual = decision.json()
                    stepResults[index] = actual
                    if case .object(var members) = actual {
                        members.append(JSON.Member("decisions", list))
                        if let flushed { members.append(JSON.Member("batches", flushed)) }
                        actual = .object(members)
                    }
                    for expectation in step.expectations where expectation.channel == nil || expectation.channel == decision.channel {
                        if let mismatch = Self.check(expectation, against: actual, earlier: stepResults) {
                            let field = expectation.channel.map { "channels.\($0).\(expectation.key)" } ?? expectation.key
                            failures.append(.init(step: index, field: field, expected: mismatch.expected,
                                                  actual: mismatch.actual, span: expectation.span,
                                                  context: Self.context(for: expectation.key, of: actual)))
                        }
                    }
                }
                for channel in Set(step.expectations.compactMap(\.channel)).sorted()
                where !stepDecisions.contains(where: { $0.channel == channel }) {
                    failures.append(.init(step: index, field: "channels.\(channel)", expected: "a decision on `\(channel)`",
                                          actual: "decisions on " + stepDecisions.map { $0.channel ?? "no channel" }.joined(separator: ", "),
                                          span: step.span))
                }
                for decision in stepDecisions {
                    if var entry = decision.pendingEntry() {
                        entry.subject = decision.subject ?? request.subject
                        ledger.schedule(entry)
                    }
                }
            }
        }
        var result = PolicyTestResult(name: test.name, span: test.span, failures: failures, decisions: decisions, prompts: prompts)
        result.steps = test.steps.count
        return result
    }

    /// `requestError:` — the first problem of a refused request, as `{ path, code, message }`,
    /// checked against the step's expectations.
    static func checkRequestError(_ errors: RequestErrors, step: PolicyTestCase.Step, index: Int) -> [PolicyTestResult.Failure] {
        guard let first = errors.errors.first else { return [] }
        var problem: [JSON.Member] = [.init("path", .string(first.path)), .init("message", .string(first.message))]
        if let code = first.code { problem.append(.init("code", .string(code))) }
        let actual = JSON.object([.init("requestError", .object(problem))])
        return step.expectations.compactMap { expectation in
            guard let mismatch = check(expectation, against: actual, earlier: [:]) else { return nil }
            return .init(step: index, field: expectation.key, expected: mismatch.expected, actual: mismatch.actual, span: expectation.span)
        }
    }

    /// One prompt step: the prompt decision (nil when its request failed) and the failures.
    func runPrompt(_ json: JSON, step: PolicyTestCase.Step, index: Int)
        -> (decision: PromptDecision?, failures: [PolicyTestResult.Failure])
    {
        func requestFailure(_ expected: String, _ actual: String) -> (PromptDecision?, [PolicyTestResult.Failure]) {
            (nil, [PolicyTestResult.Failure(step: index, field: "request", expected: expected, actual: actual, span: step.span)])
        }
        guard let prompt else { return requestFailure("a prompt decision", "this runner decides no prompts") }
        let request: PromptRequest
        do {
            request = try PromptRequest(json: json)
        } catch {
            return requestFailure("a valid prompt request", error.description.replacingNewlines)
        }
        switch prompt(request, request.now) {
        case .failure(let errors):
            return requestFailure("a prompt decision", errors.description.replacingNewlines)
        case .success(let decision):
            let actual = decision.json()
            let failures = step.expectations.compactMap { expectation in
                Self.check(expectation, against: actual).map {
                    PolicyTestResult.Failure(step: index, field: expectation.key, expected: $0.expected, actual: $0.actual,
                                             span: expectation.span, context: Self.context(for: expectation.key, of: actual))
                }
            }
            return (decision, failures)
        }
    }

    /// A flushed batch's JSON with `members`, how many decisions it holds (`batches: [ { members } ]`).
    static func flushedJSON(_ flushed: Decision, members: Int) -> JSON {
        .object((flushed.json().members ?? []) + [JSON.Member("members", .int(members))])
    }

    /// A prompt step's request: `given` overlaid with `when`, without the trigger's fields
    /// (`type`, `at`, `params`, `subject`) and the `prompt` flag; `now` defaults to `at`.
    static func promptRequest(given: JSON, when: JSON, fedBack: [JSON]) -> JSON {
        let merged = request(given: given, when: when, fedBack: fedBack)
        let dropped: Set<String> = ["type", "at", "params", "subject", "prompt"]
        return .object((merged.members ?? []).filter { !dropped.contains($0.key) })
    }

    /// `given` overlaid with `when`, `now` defaulting to `at`, history extended with fed-back entries.
    static func request(given: JSON, when: JSON, fedBack: [JSON]) -> JSON {
        var members = given.members ?? []
        for member in when.members ?? [] {
            if let i = members.firstIndex(where: { $0.key == member.key }) { members[i] = member } else { members.append(member) }
        }
        if !members.contains(where: { $0.key == "now" }), let at = members.first(where: { $0.key == "at" }) {
            members.append(JSON.Member("now", at.value))
        }
        if !fedBack.isEmpty {
            let base = members.first(where: { $0.key == "history" })?.value.elements ?? []
            members.removeAll { $0.key == "history" }
            members.append(JSON.Member("history", .array(base + fedBack)))
        }
        return .object(members)
    }

    /// The ledger entry a delivered-or-pending decision leaves behind.
    static func historyEntry(for decision: Decision, subject: String?) -> JSON? {
        guard decision.action != .suppress, let deliverAt = decision.deliverAt else { return nil }
        var members: [JSON.Member] = [
            JSON.Member("key", .string(decision.key ?? "\(decision.type):\(deliverAt)")),
            JSON.Member("type", .string(decision.type)),
            JSON.Member("deliverAt", .string(RFC3339.format(deliverAt, offsetSeconds: 0))),
            JSON.Member("status", .string("scheduled")),
        ]
        if let subject { members.append(JSON.Member("subject", .string(subject))) }
        if let channel = decision.channel { members.append(JSON.Member("channel", .string(channel))) }
        if let batch = decision.batch { members.append(JSON.Member("batch", .string(batch.key))) }
        return .object(members)
    }

    struct Mismatch { var expected: String; var actual: String }

    /// What decided, for a failed `action`/`prompt` (the reason, then the rule or cap with its
    /// place) or `reason` (the rule or cap); nil for other fields, or when nothing is known.
    static func context(for field: String, of decision: JSON) -> String? {
        var parts: [String] = []
        if field == "action" || field == "prompt", let reason = decision["reason"]?.stringValue {
            parts.append("reason \(reason)")
        }
        guard !parts.isEmpty || field == "reason" else { return nil }
        let rule = decision["rule"]?["id"]?.stringValue
        if let rule {
            let source = decision["rule"]?["source"]?.stringValue
            parts.append("rule \(rule)" + (source.map { " at \($0)" } ?? ""))
        }
        if let cap = decision["cap"]?.stringValue, cap != rule {
            parts.append("cap \(cap)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    static func check(_ expectation: Expectation, against decision: JSON, earlier: [Int: JSON] = [:]) -> Mismatch? {
        let expected = expectation.expected
        switch expectation.check {
        case .localTimeRange(let from, let to):
            let local = decision["localDeliverAt"]?.stringValue
            let minutes = local.flatMap { text -> Int? in
                let scalars = Array(text.unicodeScalars)
                guard scalars.count >= 16 else { return nil }
                return PolicyTestLoader.minutesOfDay(String(String.UnicodeScalarView(scalars[11..<16])))
            }
            let want = "between \(clock(from)) and \(clock(to))"
            guard let minutes else { return Mismatch(expected: want, actual: local ?? "(absent)") }
            let inside = from <= to ? (from...to).contains(minutes) : (minutes >= from || minutes <= to)
            return inside ? nil : Mismatch(expected: want, actual: clock(minutes))
        case .negated(let inner):
            let probe = Expectation(key: expectation.key, check: inner, expected: expected, span: expectation.span)
            guard check(probe, against: decision, earlier: earlier) == nil else { return nil }
            return Mismatch(expected: "not " + display(expected), actual: display(expected))
        case .sameBatch(let step):
            let mine = decision["batch"]?["key"]?.stringValue
            let theirs = earlier[step]?["batch"]?["key"]?.stringValue
            guard let theirs else { return Mismatch(expected: "the batch of step \(step + 1)", actual: "step \(step + 1) is in no batch") }
            return mine == theirs ? nil : Mismatch(expected: theirs, actual: mine ?? "(no batch)")
        case .entries(let field, let blocks, let match):
            let items = decision[field]?.elements ?? []
            let listing = "\(items.count): " + items.map { d in
                [d["type"]?.stringValue, d["action"]?.stringValue, d["channel"]?.stringValue, d["key"]?.stringValue].compactMap { $0 }
                    .joined(separator: " ")
            }.joined(separator: "; ")
            if items.count != blocks.count {
                return Mismatch(expected: "\(blocks.count) entries", actual: listing)
            }
            // By key or channel: each block takes the first entry not yet taken with its value,
            // so a reordering neither fails a right answer nor passes a wrong one.
            var order = Array(items.indices)
            if match != .position {
                let name = match == .key ? "key" : "channel"
                var taken = Set<Int>()
                for (i, block) in blocks.enumerated() {
                    let want = block.first { $0.check == .equals(path: [name]) }!.expected
                    guard let j = items.indices.first(where: { !taken.contains($0) && items[$0][name].map { equal(want, $0) } == true }) else {
                        return Mismatch(expected: "[\(i + 1)] an entry with \(name) \(display(want))", actual: listing)
                    }
                    taken.insert(j)
                    order[i] = j
                }
            }
            for (i, block) in blocks.enumerated() {
                let item = items[order[i]]
                for inner in block {
                    if let m = check(inner, against: item, earlier: earlier) {
                        return Mismatch(expected: "[\(i + 1)].\(inner.key) \(m.expected)", actual: m.actual)
                    }
                }
            }
            return nil
        case .keys(let field):
            let actual = (decision[field]?.elements ?? []).compactMap(\.stringValue).sorted()
            let want = (expected.elements ?? []).map(display).sorted()
            return actual == want ? nil : Mismatch(expected: "[" + want.joined(separator: ", ") + "]", actual: "[" + actual.joined(separator: ", ") + "]")
        case .localTime, .localDate:
            let local = decision["localDeliverAt"]?.stringValue
            let actual: String? = local.map { text in
                let scalars = Array(text.unicodeScalars)
                let range = expectation.check == .localTime ? 11..<16 : 0..<10
                guard scalars.count >= range.upperBound else { return text }
                return String(String.UnicodeScalarView(scalars[range]))
            }
            let want = display(expected)
            return actual == want ? nil : Mismatch(expected: want, actual: actual ?? "(absent)")
        case .equals(let path):
            var value: JSON? = decision
            for key in path { value = value?[key] }
            if case .null = expected {
                return value == nil || value == .null ? nil : Mismatch(expected: "(absent)", actual: display(value!))
            }
            guard let actual = value else { return Mismatch(expected: display(expected), actual: "(absent)") }
            if equal(expected, actual) { return nil }
            return Mismatch(expected: display(expected), actual: display(actual))
        }
    }

    /// Equal as JSON, as instants when both are RFC 3339 text, or as text when one side is a
    /// string and the other a scalar (`badge: "3"` vs `3`).
    static func equal(_ expected: JSON, _ actual: JSON) -> Bool {
        if expected == actual { return true }
        if case .string(let e) = expected, case .string(let a) = actual,
           let x = RFC3339.parse(e), let y = RFC3339.parse(a) {
            return x == y
        }
        switch (expected, actual) {
        case (.string, .int), (.string, .bool), (.int, .string), (.bool, .string), (.string, .double), (.double, .string):
            return display(expected) == display(actual)
        default:
            return false
        }
    }

    static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    static func display(_ value: JSON) -> String {
        switch value {
        case .string(let s): s
        case .null: "(absent)"
        default: value.serialized()
        }
    }
}

extension String {
    var replacingNewlines: String {
        split(separator: "\n").joined(separator: "; ")
    }
}
