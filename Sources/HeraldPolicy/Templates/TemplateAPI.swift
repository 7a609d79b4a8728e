// API skeleton: the templates work replaces the bodies (owner: templates). Others only call this.
public import HeraldSyntax

/// A copy template in Herald's ICU MessageFormat subset (`{name}`, `plural`, `select`, `'{'`).
public struct MessageTemplate: Sendable, Hashable {
    /// The template's text as written.
    public let source: String
    public let span: SourceSpan
    /// Every placeholder name used (params, `type`, `subject`, `count`, `first`), in first-use order.
    public let placeholders: [String]

    public init(source: String, span: SourceSpan, placeholders: [String]) {
        self.source = source
        self.span = span
        self.placeholders = placeholders
    }

    /// Parses `scalar` and checks every placeholder against `allowed` (name → type; `plural` needs an
    /// int, `select` a string, enum or bool). Errors point at the placeholder's column.
    public static func compile(
        _ scalar: YAMLScalar,
        span: SourceSpan,
        allowed: [String: ValueType],
        diagnostics: inout Diagnostics
    ) -> MessageTemplate? {
        MessageTemplate(source: scalar.value, span: span, placeholders: [])
    }

    /// Renders with the given values (missing values render as empty text).
    public func render(_ values: [String: Value]) -> String {
        source
    }
}

/// A deep-link route template such as `demo://maintenance?filter={filter}`.
public struct RouteTemplate: Sendable, Hashable {
    public let source: String
    public let span: SourceSpan
    /// The `{name}` placeholders, in order.
    public let params: [String]

    public init(source: String, span: SourceSpan, params: [String]) {
        self.source = source
        self.span = span
        self.params = params
    }

    /// Parses a route `url`; every placeholder must be in `declared` and every declared param must
    /// appear. `scheme` is the catalog's app scheme (`https://` is always allowed).
    public static func compile(
        _ scalar: YAMLScalar,
        span: SourceSpan,
        declared: [String: ValueType],
        scheme: String?,
        diagnostics: inout Diagnostics
    ) -> RouteTemplate? {
        RouteTemplate(source: scalar.value, span: span, params: [])
    }

    /// Renders with percent-encoded values.
    public func render(_ values: [String: String]) -> String {
        source
    }
}
