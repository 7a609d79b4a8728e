// H0327–H0328: what a cap's `max` may read. A cap's size is a setting of the user (`prefs.*`,
// `user.*`) or, in a `scope: subject` cap, of the subject it counts (`state.*` by `subject`).
// docs/language.md § `caps`.
extension DiagnosticCode {
    public static let capMaxReadsState = DiagnosticCode("H0327", "cap-max-reads-state", "a cap's `max` reads `state.*`, but the cap's scope is not `subject`: only a subject cap is sized by per-object state")
    public static let capMaxReadsSubject = DiagnosticCode("H0328", "cap-max-reads-subject", "a cap's `max` reads `subject`, but the cap's scope is not `subject`, so it does not count by subject")

    static let capLimitCodes: [DiagnosticCode] = [capMaxReadsState, capMaxReadsSubject]
}
