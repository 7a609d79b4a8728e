// The public surface of the expression language: environment, values, compiled expressions
// and the compiler. The phases behind it live in HeraldSyntax (lexer, parser) and in
// ExpressionChecker (types) and ExpressionEvaluator (closures). See docs/language.md (Expressions).
public import HeraldSyntax

/// Everything an expression may name, built by the compiler for one place in a bundle.
public struct ExpressionEnvironment: Sendable {
    /// Root names: `state`, `user`, `params`, `prefs`, `trigger`, `local`, `now`, `subject`.
    public var roots: [String: SchemaNode]
    /// Type and category names `sent(name, window)` may count.
    public var sentTargets: Set<String>
    /// Name paths resolved to slots at compile time: a read of one of these compiles to
    /// `EvaluationContext.value(slot:path:)`, so evaluating it indexes an array instead of
    /// hashing the path. The bundle compiler binds every `state`/`user` field to its index in
    /// `PolicyBundle.schemaFields`.
    public var slots: [[String]: Int]

    public init(roots: [String: SchemaNode], sentTargets: Set<String>, slots: [[String]: Int] = [:]) {
        self.roots = roots
        self.sentTargets = sentTargets
        self.slots = slots
    }

    /// The standard environment: the catalog's `state` and `user` schemas, a type's params,
    /// and the built-in `prefs`, `trigger`, `local`, `now`, `subject`.
    public static func standard(
        state: [String: SchemaNode],
        user: [String: SchemaNode],
        params: [String: ValueType],
        categories: [String],
        channels: [String],
        types: [String]
    ) -> ExpressionEnvironment {
        func toggles(_ names: [String]) -> SchemaNode {
            .object(Dictionary(names.map { ($0, SchemaNode.value(.bool)) }, uniquingKeysWith: { a, _ in a }))
        }
        let prefs: [String: SchemaNode] = [
            "timezone": .value(.string),
            "pausedAll": .value(.bool),
            "reminderTime": .value(.time),
            // Absent when the user has no quiet hours.
            "quietHours": .object(["start": .value(.optional(.time)), "end": .value(.optional(.time))]),
            "trainingDays": .value(.list(.weekday)),
            "maxPerDay": .value(.int),
            "muted": .value(.list(.string)),
            "categories": toggles(categories),
            "channels": toggles(channels),
            "types": toggles(types),
        ]
        let roots: [String: SchemaNode] = [
            "state": .object(state),
            "user": .object(user),
            "params": .object(params.mapValues { SchemaNode.value($0) }),
            "prefs": .object(prefs),
            "trigger": .object(["at": .value(.instant)]),
            "now": .value(.instant),
            "local": .object(["date": .value(.date), "weekday": .value(.weekday), "time": .value(.time)]),
            // The candidate delivery instant and its local date and time (docs/time.md, "When a
            // rule is judged").
            "delivery": .object(["at": .value(.instant), "date": .value(.date), "weekday": .value(.weekday), "time": .value(.time)]),
            "subject": .value(.optional(.string)),
        ]
        return ExpressionEnvironment(roots: roots, sentTargets: Set(types + categories))
    }

    /// Adds the catalog's declared app preferences to `prefs` (`prefs.sound`); the built-in
    /// `maxPerDay` is already there.
    public mutating func declare(_ prefs: NamedTable<DeclaredPreference>) {
        guard case .object(var fields)? = roots["prefs"] else { return }
        for pref in prefs where !pref.isBuiltin { fields[pref.name] = .value(pref.type) }
        roots["prefs"] = .object(fields)
    }
}

/// A type-checked expression, ready to evaluate.
public struct CompiledExpression: Sendable {
    public var source: String { storage.source }
    public var span: SourceSpan { storage.span }
    public var type: ValueType { storage.type }
    /// Every name path the expression reads (for `missing_data` checks and lints), without
    /// duplicates, in first-use order. `since()` reads `["now"]`.
    public var referencedPaths: [[String]] { storage.referencedPaths }
    /// The subset of `referencedPaths` whose declared type is not optional: the paths whose
    /// absence the engine reports as `missing_data`.
    public var requiredPaths: [[String]] { storage.requiredPaths }
    /// The window of each `sent()` call the expression makes (how far back it reads the ledger).
    public var sentWindows: [SentWindow] { storage.sentWindows }
    /// The targets of the expression's `sent(target, since(…))` calls (windows measured from
    /// an instant: a store keeps these targets' entries whatever their age).
    public var sinceTargets: [String] { storage.sinceTargets }
    /// Immutable and shared: copying an expression (as rules and decisions do) is one
    /// reference count. Package access: the engine's hot path holds evaluators without
    /// counting references (`HeraldEngine/HotPath/UnownedExpression.swift`).
    package let storage: Storage

    package final class Storage: Sendable {
        let source: String
        let span: SourceSpan
        let type: ValueType
        let referencedPaths: [[String]]
        let requiredPaths: [[String]]
        let sentWindows: [SentWindow]
        let sinceTargets: [String]
        package let evaluation: ExpressionEvaluation
        /// For a `bool` expression, its truth computed without building values for its logic
        /// (`ExpressionEvaluator.compileBool`); else `evaluation`'s `.isTrue`.
        package let truth: BoolEvaluation

        /// `truth` is not optional: a closure kept in an optional is stored maximally
        /// abstracted, and calling it would go through two reabstraction thunks.
        init(source: String, span: SourceSpan, type: ValueType, referencedPaths: [[String]],
             requiredPaths: [[String]], sentWindows: [SentWindow], sinceTargets: [String], evaluation: @escaping ExpressionEvaluation,
             truth: @escaping BoolEvaluation) {
            self.truth = truth
            self.sentWindows = sentWindows
            self.sinceTargets = sinceTargets
            self.source = source
            self.span = span
            self.type = type
            self.referencedPaths = referencedPaths
            self.requiredPaths = requiredPaths
            self.evaluation = evaluation
        }
    }

    /// An expression that evaluates to `.null` (for callers that need a placeholder).
    public init(source: String, span: SourceSpan, type: ValueType, referencedPaths: [[String]]) {
        self.init(source: source, span: span, type: type, referencedPaths: referencedPaths,
                  requiredPaths: referencedPaths, evaluation: { _ in .null }, truth: { _ in false })
    }

    init(source: String, span: SourceSpan, type: ValueType, referencedPaths: [[String]],
         requiredPaths: [[String]], sentWindows: [SentWindow] = [], sinceTargets: [String] = [], evaluation: @escaping ExpressionEvaluation,
         truth: @escaping BoolEvaluation) {
        storage = Storage(source: source, span: span, type: type, referencedPaths: referencedPaths,
                          requiredPaths: requiredPaths, sentWindows: sentWindows, sinceTargets: sinceTargets,
                          evaluation: evaluation, truth: truth)
    }

    /// Evaluates; total (never traps: division by zero and the like have defined results).
    ///
    /// An absent value (`context.value(at:)` returns nil) reads as `.null`, which propagates
    /// through arithmetic and functions and makes comparisons, `in` and logic false.
    /// - Complexity: one closure call per node of the expression; no allocation beyond the
    ///   values the context returns and list literals built from non-constant items.
    ///
    /// Takes the context as an existential, which is what the compiled closures read: a
    /// generic parameter would be copied into one (a reference count per evaluation).
    public func evaluate(_ context: any EvaluationContext) -> Value {
        storage.evaluation(context)
    }

    /// Evaluates a bool expression: true only for `.bool(true)`. A `bool` expression's
    /// logic runs without building values.
    public func evaluateBool(_ context: any EvaluationContext) -> Bool {
        storage.truth(context)
    }
}

/// Parses and type-checks expressions written in YAML scalars.
public enum ExpressionCompiler {
    /// Compiles `scalar` (the whole scalar is the expression). `expecting` is the type the
    /// place requires (nil: any). Errors point at their exact column inside the scalar.
    public static func compile(
        _ scalar: YAMLScalar,
        span: SourceSpan,
        expecting: ValueType?,
        in environment: ExpressionEnvironment,
        diagnostics: inout Diagnostics
    ) -> CompiledExpression? {
        var checker = ExpressionChecker(scalar: scalar, environment: environment)
        let (node, syntaxErrors) = ExpressionParser.parse(scalar.value)
        guard let node else {
            for e in syntaxErrors {
                diagnostics.append(Diagnostic(e.code, e.message, at: checker.span(e.range), severity: .error, suggestion: e.suggestion))
            }
            return nil
        }
        let checked = checker.check(node, [])
        if let checked, let expecting, !Self.fits(checked.type, expecting) {
            diagnostics.append(contentsOf: checker.diagnostics)
            diagnostics.error(.exprResultType, "expected \(Self.article(expecting)) expression, found \(checked.type)", at: checker.span(node.range))
            return nil
        }
        diagnostics.append(contentsOf: checker.diagnostics)
        guard let checked, checker.diagnostics.isEmpty else { return nil }
        let evaluation = ExpressionEvaluator.compile(checked.expression, slots: environment.slots)
        let truth: BoolEvaluation
        if checked.type == .bool {
            truth = ExpressionEvaluator.compileBool(checked.expression, slots: environment.slots)
        } else {
            truth = { context in evaluation(context).isTrue }
        }
        return CompiledExpression(
            source: scalar.value, span: span, type: checked.type,
            referencedPaths: checker.paths, requiredPaths: checker.requiredPaths,
            sentWindows: checker.sentWindows, sinceTargets: checker.sinceTargets, evaluation: evaluation, truth: truth)
    }

    /// Parses and checks `text` as if it were a plain YAML scalar starting at `start`
    /// (handy for tests and tools that hold expressions outside YAML).
    public static func compile(
        _ text: String,
        at start: SourceLocation = SourceLocation(path: "<expression>", line: 1, column: 1),
        expecting: ValueType?,
        in environment: ExpressionEnvironment,
        diagnostics: inout Diagnostics
    ) -> CompiledExpression? {
        let positions = ScalarPositions(line: text, start: start)
        let scalar = YAMLScalar(value: text, style: .plain, positions: positions)
        return compile(scalar, span: SourceSpan(start: start, end: positions.end ?? start), expecting: expecting, in: environment, diagnostics: &diagnostics)
    }

    private static func fits(_ actual: ValueType, _ expected: ValueType) -> Bool {
        if actual == expected { return true }
        switch (actual, expected) {
        case (_, .optional(let inner)): return fits(actual, inner)
        case (.enumeration, .string): return true
        default: return false
        }
    }

    private static func article(_ type: ValueType) -> String {
        let name = type.description
        return (name.first.map { "aeiou".contains($0) } ?? false) ? "an \(name)" : "a \(name)"
    }
}
