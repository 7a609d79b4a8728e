public import HeraldSyntax

/// `prompt:` — when the app may ask the user for OS notification permission.
///
/// The engine answers `ask` or `wait` (with a reason): permission already `granted` waits
/// (`already_granted`), `denied` waits for good (`denied_before`: never ask again), then the
/// first wait rule whose `when` is true waits with its reason; otherwise `ask` (`eligible`).
/// See docs/language.md (`prompt`).
public struct PromptPolicy: Sendable {
    /// The wait rules, in order; the first true one decides.
    public var wait: [PromptRule]
    public var description: String?
    /// The `prompt:` key; nil when the policy has no prompt section.
    public var span: SourceSpan?

    public init(wait: [PromptRule] = [], description: String? = nil, span: SourceSpan? = nil) {
        self.wait = wait
        self.description = description
        self.span = span
    }

    /// The reason of an `ask`: no built-in wait and no wait rule applies.
    public static let askReason = "eligible"

    /// The built-in prompt reasons (a closed set), in the order docs/language.md lists them.
    public static let builtInReasons: [Reason] = [
        ("eligible", "`ask`: permission is not yet decided and no wait rule applies"),
        ("already_granted", "`wait`: the OS permission is already granted; there is nothing to ask"),
        ("denied_before", "`wait`: the user denied the OS permission before; never ask again"),
        ("missing_data", "`wait`: a state or user field a wait rule reads is absent"),
    ].map { Reason(code: $0.0, description: $0.1, isBuiltIn: true, span: nil) }

    /// The reasons a wait rule may give besides the catalog's: every built-in but `eligible`.
    public static let builtInWaitReasons: [String] = builtInReasons.map(\.code).filter { $0 != askReason }
}

/// One entry of `prompt.wait`: while `when` is true, the app waits for the reason given.
public struct PromptRule: Sendable {
    /// Declared, or `prompt.wait[<n>]` (0-based).
    public var id: String
    /// Waits when true.
    public var when: CompiledExpression
    /// A built-in wait reason or one the catalog declares.
    public var reason: String
    /// Where the rule is named: its `id` value, else its first key.
    public var span: SourceSpan

    public init(id: String, when: CompiledExpression, reason: String, span: SourceSpan) {
        self.id = id
        self.when = when
        self.reason = reason
        self.span = span
    }
}
