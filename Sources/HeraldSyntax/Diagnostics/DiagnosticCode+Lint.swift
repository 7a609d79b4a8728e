// H05xx: validator lints on the compiled graph
extension DiagnosticCode {
    public static let lintUnreachableRule = DiagnosticCode("H0501", "unreachable-suppression-rule", "a suppression rule can never fire: an earlier rule always fires first, or its condition is always false")
    public static let lintSoftCapAboveHardCap = DiagnosticCode("H0502", "soft-cap-above-hard-cap", "a soft cap (defer, batch, digest) allows more than a hard cap on the same scope and window, so it never acts")
    public static let lintZeroCapOnDefaultType = DiagnosticCode("H0503", "zero-cap-on-default-type", "a cap of 0 applies to a type that is on by default, so the type is never delivered", severity: .warning)
    public static let lintEmptyQuietHours = DiagnosticCode("H0504", "empty-quiet-hours", "quiet hours start and end at the same time, which is an empty window (write `quietHours: null` for none)", severity: .warning)
    public static let lintCopyTooLong = DiagnosticCode("H0505", "copy-too-long", "a copy field can render longer than the policy's `content.maxLength`", severity: .warning)
    public static let lintBannedWord = DiagnosticCode("H0506", "banned-word", "a copy field contains a word or phrase from the policy's `content.banned`")
    public static let lintSensitiveWithoutLockscreen = DiagnosticCode("H0507", "sensitive-param-without-lockscreen", "a type's copy shows a `sensitive` param but the type has no `lockscreen` variant")
    public static let lintSensitiveOnLockscreen = DiagnosticCode("H0508", "sensitive-param-on-lockscreen", "a type's `lockscreen` copy itself shows a `sensitive` param")
    public static let lintDuplicateCap = DiagnosticCode("H0509", "duplicate-cap", "two caps have the same scope, match, window and limit: one of them is redundant", severity: .warning)

    static let lintCodes: [DiagnosticCode] = [
        .lintUnreachableRule, .lintSoftCapAboveHardCap, .lintZeroCapOnDefaultType, .lintEmptyQuietHours,
        .lintCopyTooLong, .lintBannedWord, .lintSensitiveWithoutLockscreen, .lintSensitiveOnLockscreen,
        .lintDuplicateCap,
    ]
}
