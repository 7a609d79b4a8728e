// H08xx: simulation scenario files (`policies/<app>/scenarios/*.yaml`, docs/simulate.md)
extension DiagnosticCode {
    public static let scenarioStructure = DiagnosticCode("H0801", "scenario-structure", "a scenario file is not shaped as documented (a mapping with `users`, `days`, `triggers`; sections of the right shape)")
    public static let scenarioUnknownKey = DiagnosticCode("H0802", "scenario-unknown-key", "a scenario uses a key that is not part of the scenario format")
    public static let scenarioUnknownType = DiagnosticCode("H0803", "scenario-unknown-type", "a scenario trigger or plan candidate names a type the policy's catalog does not declare")
    public static let scenarioPick = DiagnosticCode("H0804", "scenario-pick", "a `pick:` is not a non-empty list of `value: weight` entries with positive weights")
    public static let scenarioTimeOfDay = DiagnosticCode("H0805", "scenario-time-of-day", "a time of day in a scenario is not `HH:MM` (00:00 to 23:59), or a `between` range is empty")
    public static let scenarioDuration = DiagnosticCode("H0806", "scenario-duration", "a duration in a scenario is not a number with a unit (`30s`, `15m`, `2h`, `1d`)")
    public static let scenarioDate = DiagnosticCode("H0807", "scenario-date", "a scenario's `start` is not a date `YYYY-MM-DD`, or an explicit trigger time is not an RFC 3339 date-time with an offset")
    public static let scenarioNumber = DiagnosticCode("H0808", "scenario-number", "a number in a scenario is not a number or is out of its range (users, days, rates, probabilities, weights)")
    public static let scenarioTriggerTiming = DiagnosticCode("H0809", "scenario-trigger-timing", "a scenario trigger does not say when it fires with exactly one of `at`, `perDay` or `times`")
    public static let scenarioUnknownZone = DiagnosticCode("H0810", "scenario-unknown-zone", "a time zone in a scenario's population is not in the tz database")
    public static let scenarioWeekday = DiagnosticCode("H0811", "scenario-weekday", "a scenario's `weekdays` names something other than `mon` … `sun`")
    public static let scenarioRequest = DiagnosticCode("H0812", "scenario-request", "a request the scenario makes is rejected by the engine (a state, user or param field the catalog does not declare, or of the wrong type)")
    public static let scenarioChangeDay = DiagnosticCode("H0813", "scenario-change-day", "a scenario `changes` entry names a day outside the simulated days")

    static let scenarioCodes: [DiagnosticCode] = [
        .scenarioStructure, .scenarioUnknownKey, .scenarioUnknownType, .scenarioPick, .scenarioTimeOfDay, .scenarioDuration,
        .scenarioDate, .scenarioNumber, .scenarioTriggerTiming, .scenarioUnknownZone, .scenarioWeekday, .scenarioRequest,
        .scenarioChangeDay,
    ]
}
