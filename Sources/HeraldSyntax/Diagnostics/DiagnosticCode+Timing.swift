// H0212–H0219, H0320–H0324: when a rule is judged and what a past trigger does
// (`timing.judgedAt`, `timing.past`, the `delivery.*` names). docs/time.md.
extension DiagnosticCode {
    public static let pastSkipImmediate = DiagnosticCode("H0212", "past-skip-immediate", "`past: skip` on a type aligned to its own trigger (`at: immediate`, no positive offset) skips every trigger decided late", severity: .warning)
    public static let sameDayWithoutClock = DiagnosticCode("H0213", "same-day-without-clock", "`sameDay: true` on a type whose `at` is not a time of day (`reminder_time`, `local(\"HH:MM\")`)")
    public static let exprDeliveryWithoutDelivery = DiagnosticCode("H0320", "expr-delivery-without-delivery", "`delivery.*` read where nothing is delivered (prompt rules, `badge`, a cap's `max`)")

    static let timingCodes: [DiagnosticCode] = [pastSkipImmediate, sameDayWithoutClock, exprDeliveryWithoutDelivery]
}
