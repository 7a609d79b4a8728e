// H03xx: expressions (lexer, parser, type checker)
extension DiagnosticCode {
    // Lexer
    public static let exprUnexpectedCharacter = DiagnosticCode("H0301", "expr-unexpected-character", "a character that cannot start any token of an expression")
    public static let exprUnterminatedString = DiagnosticCode("H0302", "expr-unterminated-string", "a string literal in an expression has no closing quote")
    public static let exprInvalidNumber = DiagnosticCode("H0303", "expr-invalid-number", "an int or duration literal is malformed or out of range (`15x`, `1m2h`)")
    // Parser
    public static let exprExpectedToken = DiagnosticCode("H0304", "expr-expected-token", "the parser expected a token or an expression and found something else")
    public static let exprTrailingTokens = DiagnosticCode("H0305", "expr-trailing-tokens", "text follows a complete expression")
    // Names and calls
    public static let exprUnknownName = DiagnosticCode("H0306", "expr-unknown-name", "a name that is not in scope, or a path that does not end at a value")
    public static let exprUnknownFunction = DiagnosticCode("H0307", "expr-unknown-function", "a call of a function the language does not have")
    public static let exprArgumentCount = DiagnosticCode("H0308", "expr-argument-count", "a function called with the wrong number of arguments")
    // Types
    public static let exprTypeMismatch = DiagnosticCode("H0309", "expr-type-mismatch", "an operator or function applied to operands of the wrong types")
    public static let exprResultType = DiagnosticCode("H0310", "expr-result-type", "the expression's type is not the type its place requires")
    public static let exprOptionalWithoutHas = DiagnosticCode("H0311", "expr-optional-without-has", "an optional value used where it is not proven present by `has()` or defaulted by `??`")
    public static let exprNotOptional = DiagnosticCode("H0312", "expr-not-optional", "`has()` or `??` applied to something that is never absent")
    public static let exprUnknownEnumCase = DiagnosticCode("H0313", "expr-unknown-enum-case", "a string literal compared with an enum or weekday value is not one of its cases")
    // Limits
    public static let exprTooLong = DiagnosticCode("H0314", "expr-too-long", "an expression longer than 4,096 characters")
    public static let exprTooDeep = DiagnosticCode("H0315", "expr-too-deep", "an expression nested deeper than 64 levels")
    // Function arguments
    public static let exprInvalidTimeOrDate = DiagnosticCode("H0316", "expr-invalid-time-or-date", "the text of `time(\"HH:MM\")` or `date(\"YYYY-MM-DD\")` is not a valid time or date")
    public static let exprUnknownSentTarget = DiagnosticCode("H0317", "expr-unknown-sent-target", "`sent()` names no notification type or category")
    public static let exprInvalidSentWindow = DiagnosticCode("H0318", "expr-invalid-sent-window", "the window of `sent()` is not `day`, `week`, `calendar_week`, `month`, `lifetime` or a duration")
    public static let exprInvalidSentStatus = DiagnosticCode("H0319", "expr-invalid-sent-status", "the statuses of `sent()` are not a list of ledger statuses (`scheduled`, `delivered`, `opened`, `dismissed`, `cancelled`)")

    static let expressionCodes: [DiagnosticCode] = [
        exprUnexpectedCharacter, exprUnterminatedString, exprInvalidNumber,
        exprExpectedToken, exprTrailingTokens,
        exprUnknownName, exprUnknownFunction, exprArgumentCount,
        exprTypeMismatch, exprResultType, exprOptionalWithoutHas, exprNotOptional, exprUnknownEnumCase,
        exprTooLong, exprTooDeep,
        exprInvalidTimeOrDate, exprUnknownSentTarget, exprInvalidSentWindow, exprInvalidSentStatus,
    ]
}
