// H0265–H0279: values taken from data (local time and date formats in copy, optional route
// params, a delivery time of day from state, computed values, keyed lookups)
extension DiagnosticCode {
    public static let templateFormatType = DiagnosticCode("H0265", "template-format-type", "`{x, time}` is used on a value that is not an instant or a time, or `{x, date}` on one that is not an instant or a date")
    public static let templateFormatStyle = DiagnosticCode("H0266", "template-format-style", "a `time` or `date` placeholder names a style Herald does not know (`{t, time, full}`)")
    public static let routeOptionalPlacement = DiagnosticCode("H0267", "route-optional-placement", "an optional route param is not the whole value of a query item (`?name={param}`), so leaving it out could not drop it cleanly")
    public static let routeRequiredFromOptional = DiagnosticCode("H0268", "route-required-from-optional", "a link binds a required route param to an optional param of the type, which would render an empty segment when it is absent")
    public static let localStateField = DiagnosticCode("H0269", "local-state-field", "`timing.at: local(state(<path>))` names no `time` field of the state schema")
    public static let localStateFallback = DiagnosticCode("H0270", "local-state-fallback", "`local(state(<path>))` of an optional time field has no `?? \"HH:MM\"` fallback, or one is given for a field that is never absent")
    public static let computedNameTaken = DiagnosticCode("H0271", "computed-name-taken", "a `computed:` value has the name of one of the type's params or of a template built-in (`type`, `subject`, `localDate`)")
    public static let computedValueType = DiagnosticCode("H0272", "computed-value-type", "a `computed:` value is a list, or may be absent (an optional without `??`), so a template could not show it")
    public static let computedUnused = DiagnosticCode("H0273", "computed-unused", "no template of the type (copy, link, key, subject, thread id, payload) uses a `computed:` value", severity: .warning)
    public static let computedReadsDelivery = DiagnosticCode("H0274", "computed-reads-delivery", "a `computed:` value reads `delivery.*`, which is not known when computed values are evaluated (as the request is read)")
    public static let mapElementType = DiagnosticCode("H0275", "map-element-type", "a `map<T>` whose values are not plain values (a list, a map or an optional), or a map declared outside the `state` and `user` schemas")
    public static let mapIndexNotAMap = DiagnosticCode("H0276", "map-index-not-a-map", "`x[key]` on a name that is not a `map<T>` field")
    public static let mapKeyType = DiagnosticCode("H0277", "map-key-type", "a map read with a key that is not a string (or an enum)")
    public static let mapWithoutKey = DiagnosticCode("H0278", "map-without-key", "a `map<T>` field used as a whole instead of one entry read by key")

    static let dataCodes: [DiagnosticCode] = [
        templateFormatType, templateFormatStyle, routeOptionalPlacement, routeRequiredFromOptional,
        localStateField, localStateFallback, computedNameTaken, computedValueType, computedUnused,
        computedReadsDelivery, mapElementType, mapIndexNotAMap, mapKeyType, mapWithoutKey,
    ]
}
