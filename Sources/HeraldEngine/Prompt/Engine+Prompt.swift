import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// Decides whether the app may ask the user for OS notification permission now.
    ///
    /// In order, the first that applies answers:
    /// 1. permission `granted` → `wait` (`already_granted`): there is nothing to ask;
    /// 2. permission `denied` → `wait` (`denied_before`): never ask again;
    /// 3. the policy's `prompt.wait` rules in order: the first whose `when` is true → `wait`
    ///    with its reason; a rule reading an absent non-optional field → `wait`
    ///    (`missing_data`), since asking too early cannot be undone;
    /// 4. otherwise `ask` (`eligible`).
    ///
    /// `unknown` and `provisional` permissions go on to the rules (a provisional grant may be
    /// upgraded by asking). Pure and deterministic, like `decide`.
    /// - Parameters:
    ///   - user: the user's context (prefs, permission, state, history), from this engine.
    ///   - now: the caller's clock; rules read it as `now`, `trigger.at` and `local.*`.
    /// - Returns: the decision, or the request error of a context made by another engine.
    /// - Complexity: O(h log h) for h history entries, then one evaluation per rule.
    public func prompt(for user: UserContext, now: Int) -> Result<PromptDecision, RequestErrors> {
        guard user.schema == ObjectIdentifier(core) else { return .failure(Self.foreignContext) }
        let context = PromptContext(engine: self, now: now, prefs: user.effective, input: user.prefs, fieldValues: user.fields,
                                    ledger: LedgerIndex(user.history, categories: categoryOfType))
        var run = PromptRun(engine: self, context: context, permission: user.permission)
        return .success(run.execute())
    }
}

/// One prompt decision in progress: the permission check, then each wait rule.
private struct PromptRun {
    let engine: Engine
    let context: PromptContext
    let permission: Permission
    var trace: [TraceStep] = []

    init(engine: Engine, context: PromptContext, permission: Permission) {
        self.engine = engine
        self.context = context
        self.permission = permission
    }

    var rules: [PromptRule] { engine.bundle.prompt.wait }

    mutating func execute() -> PromptDecision {
        switch permission {
        case .granted:
            return builtInWait("already_granted", detail: "permission is `granted`: there is nothing to ask")
        case .denied:
            return builtInWait("denied_before", detail: "permission is `denied`: never ask again")
        case .unknown, .provisional:
            trace.append(TraceStep(stage: .permission, outcome: .pass, detail: "permission is `\(permission.rawValue)`"))
        }
        for (index, rule) in rules.enumerated() {
            let source = rule.span.citation
            if let path = rule.when.requiredPaths.first(where: { context.value(at: $0) == nil }) {
                return wait("missing_data", rule: rule, after: index,
                            detail: "`\(path.joined(separator: "."))` is absent")
            }
            if rule.when.evaluateBool(context) {
                return wait(rule.reason, rule: rule, after: index, detail: "`\(rule.when.source)` is true")
            }
            trace.append(TraceStep(stage: .prompt, outcome: .pass, rule: rule.id, source: source,
                                   detail: "`\(rule.when.source)` is false"))
        }
        return PromptDecision(prompt: .ask, reason: PromptPolicy.askReason, trace: trace, policy: engine.policy)
    }

    mutating func builtInWait(_ reason: String, detail: String) -> PromptDecision {
        trace.append(TraceStep(stage: .permission, outcome: .verdict, detail: detail))
        for rule in rules { trace.append(TraceStep(stage: .prompt, outcome: .skip, rule: rule.id, source: rule.span.citation)) }
        return PromptDecision(prompt: .wait, reason: reason, trace: trace, policy: engine.policy)
    }

    mutating func wait(_ reason: String, rule: PromptRule, after index: Int, detail: String) -> PromptDecision {
        let source = rule.span.citation
        trace.append(TraceStep(stage: .prompt, outcome: .verdict, rule: rule.id, source: source, detail: detail))
        for later in rules[(index + 1)...] {
            trace.append(TraceStep(stage: .prompt, outcome: .skip, rule: later.id, source: later.span.citation))
        }
        return PromptDecision(prompt: .wait, reason: reason, rule: Decision.Rule(id: rule.id, source: source),
                              trace: trace, policy: engine.policy)
    }
}

/// What prompt rules read: state and user, prefs, `now` (also as `trigger.at` and `local.*`)
/// and the ledger. There are no params and no subject.
final class PromptContext: EvaluationContext {
    let engine: Engine
    let now: Int
    let prefs: EffectivePreferences
    let input: PreferencesInput
    /// Indexed like `engine.fields`; `.null`: absent.
    let fieldValues: [Value]
    let ledger: LedgerIndex

    init(engine: Engine, now: Int, prefs: EffectivePreferences, input: PreferencesInput, fieldValues: [Value],
         ledger: LedgerIndex) {
        self.engine = engine
        self.now = now
        self.prefs = prefs
        self.input = input
        self.fieldValues = fieldValues
        self.ledger = ledger
    }

    func sent(_ target: String, within window: SentWindow, statuses: [String]) -> Int {
        engine.sentCount(target, within: window, statuses: statuses, ledger: ledger, zone: prefs.zone, now: now)
    }

    /// A `state`/`user` read the compiler bound to its index in `schemaFields`.
    func value(slot: Int, path: [String]) -> Value? {
        slot >= 0 && slot < fieldValues.count ? field(slot) : value(at: path)
    }

    /// The value of field `slot`; nil: absent.
    private func field(_ slot: Int) -> Value? {
        guard slot >= 0, slot < fieldValues.count, fieldValues[slot] != .null else { return nil }
        return fieldValues[slot]
    }

    /// `localDate(t)` in the user's zone, as `local.date` reads it.
    func localDate(of instant: Int) -> Int? {
        prefs.zone.localDate(of: instant)
    }

    func value(at path: [String]) -> Value? {
        engine.value(at: path, trigger: now, now: now, prefs: prefs, input: input, field: field,
                     param: { _ in nil }, subject: { nil })
    }

    func sent(_ target: String, within window: SentWindow) -> Int {
        engine.sentCount(target, within: window, ledger: ledger, zone: prefs.zone, now: now)
    }

    func sent(_ target: String, after instant: Int, statuses: [String]?) -> Int {
        engine.sentCount(target, after: instant, statuses: statuses, ledger: ledger, now: now)
    }
}
