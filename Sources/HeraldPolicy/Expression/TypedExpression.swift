import HeraldSyntax

/// A type-checked expression: the checker's output and the evaluator's input. Every
/// operation is already resolved to its typed form; the evaluator never re-checks types.
indirect enum TypedExpression: Sendable {
    case constant(Value)
    /// Reads a name path; an absent value reads as `.null`.
    case read([String])
    /// `has(path)`: true when the path holds a value.
    case has([String])
    case list([TypedExpression])
    case not(TypedExpression)
    /// Unary minus; `result` is `.int` or `.duration`.
    case negate(TypedExpression, result: ValueType)
    case and(TypedExpression, TypedExpression)
    case or(TypedExpression, TypedExpression)
    /// `+ - * / %`; `result` is `.int`, `.duration` or `.instant`.
    case arithmetic(BinaryOperator, TypedExpression, TypedExpression, result: ValueType)
    /// `== != < <= > >=`.
    case compare(BinaryOperator, TypedExpression, TypedExpression)
    case member(TypedExpression, list: TypedExpression)
    case coalesce(TypedExpression, TypedExpression)
    case conditional(TypedExpression, TypedExpression, TypedExpression)
    case since(TypedExpression)
    case size(TypedExpression)
    case minimum(TypedExpression, TypedExpression)
    case maximum(TypedExpression, TypedExpression)
    case sent(String, SentWindow)
    /// `sent(target, window, [statuses])`.
    case sentWithStatuses(String, SentWindow, [String])
    /// `map[key]`: the entry, or `.null` when the key is absent.
    case index(TypedExpression, key: TypedExpression)
    /// `has(map[key])`: whether the entry is present.
    case present(TypedExpression)
    /// `sent(target, since(instant))` / `sent(target, since(instant), [statuses])`: the entries
    /// after the instant an expression reads (a lapse measured from `state.lastActiveAt`).
    case sentSince(String, TypedExpression, [String]?)
    /// `localDate(t)`: the local date of an instant in the user's zone (the context's
    /// `localDate(of:)`). `days(a, b)` needs no case of its own: it is `b - a` over dates.
    case localDate(TypedExpression)
}

extension Value {
    /// Whether the value holds a reference (a string's or a list's storage). One that does
    /// not can be overwritten or left behind without being destroyed, which the engine's
    /// request context relies on. Exhaustive on purpose: a new case must say.
    @inlinable package var holdsReference: Bool {
        switch self {
        case .string, .list, .map: true
        case .bool, .int, .duration, .instant, .time, .date, .weekday, .null: false
        }
    }

    /// The integer behind every numeric-like value (int, duration, instant, time, date, weekday).
    var integer: Int? {
        switch self {
        case .int(let n), .duration(let n), .instant(let n), .time(let n), .date(let n), .weekday(let n): n
        default: nil
        }
    }

    /// Only `.bool(true)` is true: an absent value counts as false in logic.
    @inline(__always)
    var isTrue: Bool {
        if case .bool(true) = self { return true }
        return false
    }

    /// `==` with the common cases compared directly (the synthesized `==` goes through a
    /// generic comparison of both payloads).
    @inline(__always)
    static func same(_ x: Value, _ y: Value) -> Bool {
        switch (x, y) {
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        default: x == y
        }
    }

    static func wrap(_ n: Int, as type: ValueType) -> Value {
        switch type {
        case .duration: .duration(n)
        case .instant: .instant(n)
        case .time: .time(n)
        case .date: .date(n)
        case .weekday: .weekday(n)
        default: .int(n)
        }
    }
}
