public import HeraldSyntax

/// A value a type computes from its request (`computed: { name: "<expression>" }`,
/// docs/templates.md § Computed values): evaluated once the request is read, shown by the
/// type's templates as `{name}` like a param. Its type is the expression's.
public struct ComputedValue: Sendable {
    public var name: String
    public var expression: CompiledExpression
    /// The name's place under `computed:`.
    public var span: SourceSpan

    public init(name: String, expression: CompiledExpression, span: SourceSpan) {
        self.name = name
        self.expression = expression
        self.span = span
    }

    public var type: ValueType { expression.type }
}
