// H0212–H0219, H0320–H0324: when a rule is judged and what a past trigger does
// (`timing.judgedAt`, `timing.past`, the `delivery.*` names); H0214–H0218: digest schedules
// (`digests.<name>.every`, `on`, `at: reminder_time`, `members`); H0321–H0322: `sent()` windows
// measured from an instant (`sent(target, since(state.path))`); H0325–H0326: the local date of
// an instant and whole days between dates (`localDate(t)`, `days(a, b)`). docs/time.md.
extension DiagnosticCode {
    public static let pastSkipImmediate = DiagnosticCode("H0212", "past-skip-immediate", "`past: skip` on a type aligned to its own trigger (`at: immediate`, no positive offset) skips every trigger decided late", severity: .warning)
    public static let sameDayWithoutClock = DiagnosticCode("H0213", "same-day-without-clock", "`sameDay: true` on a type whose `at` is not a time of day (`reminder_time`, `local(\"HH:MM\")`)")
    public static let digestWeekWithoutDay = DiagnosticCode("H0214", "digest-week-without-day", "a digest with `every: week` names no weekday (`weekday: mon`)")
    public static let digestDayWithoutWeek = DiagnosticCode("H0215", "digest-day-without-week", "a digest names a weekday (`weekday:`) but is not weekly (`every: week`)")
    public static let digestUnknownWeekday = DiagnosticCode("H0216", "digest-unknown-weekday", "a digest's `weekday:` is not a day of the week (`mon` … `sun`)")
    public static let digestInvalidAt = DiagnosticCode("H0217", "digest-invalid-at", "a digest's `at` is a word other than `reminder_time` (a time of day is `\"09:00\"`)")
    public static let digestMemberTwice = DiagnosticCode("H0218", "digest-member-twice", "a type listed in the `members` of two digests, or of a digest and a batch group")
    public static let exprDeliveryWithoutDelivery = DiagnosticCode("H0320", "expr-delivery-without-delivery", "`delivery.*` read where nothing is delivered (prompt rules, `badge`, a cap's `max`)")

    public static let exprSinceWindowNotInstant = DiagnosticCode("H0321", "expr-since-window-not-instant", "the `since(…)` window of `sent()` reads a value that is not an instant")
    public static let exprSinceWindowNotField = DiagnosticCode("H0322", "expr-since-window-not-field", "the `since(…)` window of `sent()` is not a field of `state`, `user` or `params`")

    public static let exprLocalDateNotInstant = DiagnosticCode("H0325", "expr-local-date-not-instant", "`localDate()` of a value that is not an instant (a date already is one; a time of day has no date)")
    public static let exprDaysNotDates = DiagnosticCode("H0326", "expr-days-not-dates", "`days(a, b)` of values that are not two dates (an instant needs `localDate()` first)")

    static let timingCodes: [DiagnosticCode] = [pastSkipImmediate, sameDayWithoutClock,
                                                digestWeekWithoutDay, digestDayWithoutWeek, digestUnknownWeekday, digestInvalidAt, digestMemberTwice,
                                                exprDeliveryWithoutDelivery,
                                                exprSinceWindowNotInstant, exprSinceWindowNotField,
                                                exprLocalDateNotInstant, exprDaysNotDates]
}
