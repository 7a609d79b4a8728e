/// A lexer or parser error: a stable code, a message in Cedar's style and where it is.
public struct ExpressionSyntaxError: Sendable, Hashable {
    public var code: DiagnosticCode
    public var message: String
    /// UTF-8 offsets into the expression text.
    public var range: Range<Int>
    /// The text the user probably meant (`&&` for `&`).
    public var suggestion: String?

    public init(_ code: DiagnosticCode, _ message: String, range: Range<Int>, suggestion: String? = nil) {
        self.code = code
        self.message = message
        self.range = range
        self.suggestion = suggestion
    }
}

/// The limits every expression obeys, checked before and during parsing.
public enum ExpressionLimits {
    /// Characters of expression text.
    public static let maxLength = 4096
    /// Levels of nesting of the syntax tree (`ExpressionNode.height`).
    public static let maxDepth = 64
}
