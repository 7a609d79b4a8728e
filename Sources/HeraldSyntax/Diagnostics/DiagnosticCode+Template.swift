// H042x: copy and route templates
extension DiagnosticCode {
    public static let templateSyntax = DiagnosticCode("H0420", "template-syntax", "a copy or route template is malformed (an unclosed `{`, an unmatched `}`, an empty `{}`, a branch without its `{…}`)")
    public static let templateUnknownPlaceholder = DiagnosticCode("H0421", "template-unknown-placeholder", "a copy template uses a placeholder that is not a declared param (or `type`, `subject`, and `count`/`first` in group copy)")
    public static let templateMissingOther = DiagnosticCode("H0422", "template-missing-other", "a `plural` or `select` has no `other` branch")
    public static let templateUnsupportedArgument = DiagnosticCode("H0423", "template-unsupported-argument", "a placeholder uses a format other than `plural`, `select`, `time` or `date` (`{n, number}`)")
    public static let templateArgumentType = DiagnosticCode("H0424", "template-argument-type", "`plural` is used on a value that is not an int, or `select` on one that is not a string, enum or bool")
    public static let templateBadSelector = DiagnosticCode("H0425", "template-bad-selector", "a `plural` selector is not `=N`, `zero`, `one`, `two`, `few`, `many` or `other`, or a selector appears twice")
    public static let routeUndeclaredParam = DiagnosticCode("H0426", "route-undeclared-param", "a route url uses a `{placeholder}` its route does not declare in `params`")
    public static let routeUnusedParam = DiagnosticCode("H0427", "route-unused-param", "a route declares a param its url never uses")
    public static let routeScheme = DiagnosticCode("H0428", "route-scheme", "a route url starts with neither the app's scheme nor `https://`")

    static let templateCodes: [DiagnosticCode] = [
        .templateSyntax, .templateUnknownPlaceholder, .templateMissingOther, .templateUnsupportedArgument,
        .templateArgumentType, .templateBadSelector, .routeUndeclaredParam, .routeUnusedParam, .routeScheme,
    ]
}
