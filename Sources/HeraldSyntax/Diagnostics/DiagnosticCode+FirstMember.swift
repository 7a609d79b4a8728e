// H0297–H0298, H0329–H0330 (issue 18, P11 part 2): batch group and digest copy that names its
// first member's params (`{first.<param>}`): every type the batches can hold must declare the
// param, with one type, and a sensitive one needs a lock-screen variant that does not show it.
extension DiagnosticCode {
    public static let firstParamUndeclared = DiagnosticCode("H0297", "first-param-undeclared", "batch group or digest copy names `{first.<param>}`, but a type its batches can hold does not declare that param")
    public static let firstParamTypeDiffers = DiagnosticCode("H0298", "first-param-type-differs", "the types a batch group's or digest's batches can hold declare the param that `{first.<param>}` names with different types")
    public static let firstSensitiveWithoutLockscreen = DiagnosticCode("H0329", "first-sensitive-without-lockscreen", "batch group or digest copy shows a `sensitive` param of its first member but has no `lockscreen` variant")
    public static let firstSensitiveOnLockscreen = DiagnosticCode("H0330", "first-sensitive-on-lockscreen", "the `lockscreen` copy of a batch group or digest itself shows a `sensitive` param of its first member")

    static let firstMemberCodes: [DiagnosticCode] = [
        firstParamUndeclared, firstParamTypeDiffers, firstSensitiveWithoutLockscreen, firstSensitiveOnLockscreen,
    ]
}
