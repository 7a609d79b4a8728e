public import HeraldSyntax

/// A suppression rule from a type's `suppress` or the policy's `suppress`.
public struct SuppressRule: Sendable {
    /// Declared, or `<type>.suppress[<n>]` / `suppress[<n>]` (0-based).
    public var id: String
    /// The type that declares it; nil for policy rules.
    public var owner: String?
    /// Suppresses when true.
    public var when: CompiledExpression?
    /// A built-in or catalog reason code.
    public var reason: String
    /// Policy rules: type or category names it applies to; empty: all.
    public var match: [String]
    /// Where the rule is named: its `id` value, else its first key.
    public var span: SourceSpan

    public init(id: String, owner: String?, when: CompiledExpression?, reason: String, match: [String], span: SourceSpan) {
        self.id = id
        self.owner = owner
        self.when = when
        self.reason = reason
        self.match = match
        self.span = span
    }
}
