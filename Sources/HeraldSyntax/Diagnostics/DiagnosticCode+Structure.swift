// H02xx: sections, keys and value shapes (the compiler)
extension DiagnosticCode {
    public static let unknownKey = DiagnosticCode("H0201", "unknown-key", "a key that is not valid at its place (a misspelt section or field)")
    public static let wrongShape = DiagnosticCode("H0202", "wrong-shape", "a value of the wrong shape: a list where a mapping belongs, a mapping where a scalar belongs, …")
    public static let invalidScalar = DiagnosticCode("H0203", "invalid-scalar", "a scalar that is not of the kind its key requires (`max: lots`, `default: maybe`)")
    public static let missingKey = DiagnosticCode("H0204", "missing-key", "a required key is absent")
    public static let invalidEnumValue = DiagnosticCode("H0205", "invalid-enum-value", "a value that is not one of the words its key allows (`kind: pigeon`)")
    public static let invalidDuration = DiagnosticCode("H0206", "invalid-duration", "a duration that is not digits and units `s m h d w` (`15m`, `1h30m`)")
    public static let invalidTimeOfDay = DiagnosticCode("H0207", "invalid-time-of-day", "a time of day that is not `HH:MM` on a 24-hour clock")
    public static let invalidSchemaType = DiagnosticCode("H0208", "invalid-schema-type", "a state, user, param or route param type that Herald does not know (`integer`, `enum()`)")
    public static let duplicateID = DiagnosticCode("H0209", "duplicate-id", "two caps or two suppression rules share an id")
    public static let invalidIdentifier = DiagnosticCode("H0210", "invalid-identifier", "a name with characters other than letters, digits, `_`, `-` and `.`")
    public static let emptyList = DiagnosticCode("H0211", "empty-list", "a list that must name at least one entry is empty (`channels: []`)")
    public static let invalidBackoffCondition = DiagnosticCode("H0230", "invalid-backoff-condition", "a back-off's `when` that does not name exactly one of `dismissed`/`ignored` with a positive count (`when: { dismissed: 0, within: 24h }`)")
    public static let invalidBackoffEffect = DiagnosticCode("H0231", "invalid-backoff-effect", "a back-off's `then` that is neither `suppress` nor `{ max, per }` (`then: quieter`)")

    static let structureCodes: [DiagnosticCode] = [
        unknownKey, wrongShape, invalidScalar, missingKey, invalidEnumValue, invalidDuration, invalidTimeOfDay,
        invalidSchemaType, duplicateID, invalidIdentifier, emptyList, invalidBackoffCondition, invalidBackoffEffect,
    ]
}
