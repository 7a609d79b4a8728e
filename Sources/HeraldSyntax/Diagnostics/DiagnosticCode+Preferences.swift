// H0250–H0264 (issue 18): declared preferences (`prefs:`, H0250–H0257), the policy's plan
// limits (`plan:`, H0258–H0259). H0256–H0257 are request errors (`RequestError.code`), not
// bundle diagnostics. docs/language.md § `prefs`, § `plan`.
extension DiagnosticCode {
    public static let prefBuiltinName = DiagnosticCode("H0250", "pref-builtin-name", "a declared preference takes the name of a built-in preference that cannot be declared")
    public static let prefBuiltinTypeOrDefault = DiagnosticCode("H0251", "pref-builtin-type-or-default", "`maxPerDay` declared in `prefs` with a `type` or `default`: the built-in preference has its own type and takes its default from `defaults.maxPerDay`")
    public static let prefUnsupportedType = DiagnosticCode("H0252", "pref-unsupported-type", "a declared preference of a type other than bool, int, string or enum(…)")
    public static let prefValueType = DiagnosticCode("H0253", "pref-value-type", "a preference's `default` or an `allowed` value that is not of the preference's type")
    public static let prefDefaultNotAllowed = DiagnosticCode("H0254", "pref-default-not-allowed", "a preference's default (or `defaults.maxPerDay`) is not one of its `allowed` values")
    public static let prefAllowedInvalid = DiagnosticCode("H0255", "pref-allowed-invalid", "`allowed` that is empty, repeats a value, or is given for a bool preference")
    public static let prefNotAllowed = DiagnosticCode("H0256", "pref-not-allowed", "a request states a preference value outside its declared `allowed` values (a request error)")
    public static let quietHoursEmpty = DiagnosticCode("H0257", "quiet-hours-empty", "a request's quiet hours start when they end (a request error)")
    public static let planHorizonInvalid = DiagnosticCode("H0258", "plan-horizon-invalid", "`plan.horizon` that is not a positive duration of at most 366 days")
    public static let planMaxPendingInvalid = DiagnosticCode("H0259", "plan-max-pending-invalid", "`plan.maxPending` that is not an integer of at least 1")

    static let preferenceCodes: [DiagnosticCode] = [
        prefBuiltinName, prefBuiltinTypeOrDefault, prefUnsupportedType, prefValueType, prefDefaultNotAllowed,
        prefAllowedInvalid, prefNotAllowed, quietHoursEmpty, planHorizonInvalid, planMaxPendingInvalid,
    ]
}
