import HeraldSyntax

/// The shape of the names an expression may use: nested objects of typed fields.
public indirect enum SchemaNode: Sendable, Hashable {
    case value(ValueType)
    case object([String: SchemaNode])
}

/// A run-time value. Enum values are `.string`.
public enum Value: Sendable, Hashable {
    case bool(Bool)
    case int(Int)
    case string(String)
    /// Seconds.
    case duration(Int)
    /// Seconds since 1970-01-01T00:00:00Z.
    case instant(Int)
    /// Seconds since local midnight.
    case time(Int)
    /// Days since 1970-01-01 (a local date).
    case date(Int)
    /// 1 = Monday … 7 = Sunday.
    case weekday(Int)
    case list([Value])
    /// A `map<T>` field's entries by key.
    case map([String: Value])
    /// An absent optional.
    case null
}

/// The window of `sent(name, window)`.
public enum SentWindow: Sendable, Hashable {
    case day, week, calendarWeek, month, lifetime
    case duration(Int)
}
