/// The static types of Herald's expression language and state schema.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    case bool
    case int
    case string
    /// A length of time (`15m`, `48h`, `7d`), in seconds.
    case duration
    /// A point in time (UTC).
    case instant
    /// A local wall-clock time of day (`time("09:00")`, `local.time`).
    case time
    /// A local calendar date (`local.date`).
    case date
    /// A day of the week (`mon` … `sun`).
    case weekday
    /// One of a declared set of names (`enum(free, pro, trial)`).
    case enumeration(EnumType)
    case list(ValueType)
    /// A map from string keys to values of one type (`map<T>`, state and user fields only),
    /// read by key: `m[key]` is a `T?`.
    case map(ValueType)
    /// A value that may be absent: usable only through `has(x)` or `x ?? default`.
    case optional(ValueType)

    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .string: "string"
        case .duration: "duration"
        case .instant: "instant"
        case .time: "time"
        case .date: "date"
        case .weekday: "weekday"
        case .enumeration(let e): "enum(\(e.cases.joined(separator: ", ")))"
        case .list(let t): "list<\(t)>"
        case .map(let t): "map<\(t)>"
        case .optional(let t): "\(t)?"
        }
    }

    /// The type without an optional wrapper.
    public var unwrapped: ValueType {
        if case .optional(let t) = self { return t }
        return self
    }

    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

/// The cases of an enumeration type, in declaration order.
public struct EnumType: Sendable, Hashable {
    public var cases: [String]
    public init(cases: [String]) { self.cases = cases }
}
