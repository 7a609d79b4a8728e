// API skeleton: the expression work replaces the bodies in this file (and may split it).
// Other code only calls what is declared here.
public import HeraldSyntax

/// The shape of the names an expression may use: nested objects of typed fields.
public indirect enum SchemaNode: Sendable, Hashable {
    case value(ValueType)
    case object([String: SchemaNode])
}

/// Everything an expression may name, built by the compiler for one place in a bundle.
public struct ExpressionEnvironment: Sendable {
    /// Root names: `state`, `user`, `params`, `prefs`, `trigger`, `local`, `now`, `subject`.
    public var roots: [String: SchemaNode]
    /// Type and category names `sent(name, window)` may count.
    public var sentTargets: Set<String>

    public init(roots: [String: SchemaNode], sentTargets: Set<String>) {
        self.roots = roots
        self.sentTargets = sentTargets
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
        ExpressionEnvironment(roots: [:], sentTargets: Set(types + categories))
    }
}

/// A run-time value. Enum values are `.string`.
public enum Value: Sendable, Hashable {
    case bool(Bool)
    case int(Int)
    case string(String)
    /// Seconds.
    case duration(Int)
    /// Seconds since 1970-01-01T00:00:00Z.
    case instant(Int)
    /// Seconds since local midnight.
    case time(Int)
    /// Days since 1970-01-01 (a local date).
    case date(Int)
    /// 1 = Monday … 7 = Sunday.
    case weekday(Int)
    case list([Value])
    /// An absent optional.
    case null
}

/// The window of `sent(name, window)`.
public enum SentWindow: Sendable, Hashable {
    case day, week, calendarWeek, month, lifetime
    case duration(Int)
}

/// What an expression reads at run time; the engine implements it.
public protocol EvaluationContext {
    /// The value at a name path such as `["state", "maintenance", "dueToday"]`; nil if absent.
    func value(at path: [String]) -> Value?
    /// How many notifications of a type or category were sent in the window.
    func sent(_ target: String, within window: SentWindow) -> Int
}

/// A type-checked expression, ready to evaluate.
public struct CompiledExpression: Sendable {
    public let source: String
    public let span: SourceSpan
    public let type: ValueType
    /// Every name path the expression reads (for `missing_data` checks and lints).
    public let referencedPaths: [[String]]

    public init(source: String, span: SourceSpan, type: ValueType, referencedPaths: [[String]]) {
        self.source = source
        self.span = span
        self.type = type
        self.referencedPaths = referencedPaths
    }

    /// Evaluates; total (never traps: division by zero and the like have defined results).
    public func evaluate(_ context: some EvaluationContext) -> Value {
        .null
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
        CompiledExpression(source: scalar.value, span: span, type: expecting ?? .bool, referencedPaths: [])
    }
}
