public import HeraldPolicy

public enum ValueChecks {
    /// Whether a run-time value has the static type: the case that type evaluates to, list
    /// items of the element type, `.null` only for an optional.
    public static func value(_ value: Value, fits type: ValueType) -> Bool {
        switch (type, value) {
        case (.optional, .null): return true
        case (.optional(let wrapped), _): return self.value(value, fits: wrapped)
        case (.bool, .bool), (.int, .int), (.string, .string), (.duration, .duration), (.instant, .instant),
             (.time, .time), (.date, .date), (.weekday, .weekday), (.enumeration, .string):
            return true
        case (.list(let element), .list(let items)):
            return items.allSatisfy { self.value($0, fits: element) }
        default:
            return false
        }
    }
}
