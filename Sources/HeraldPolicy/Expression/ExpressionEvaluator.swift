import HeraldSyntax

/// A compiled expression step: reads what it needs from the context and returns a value.
package typealias ExpressionEvaluation = @Sendable (any EvaluationContext) -> Value

/// A compiled boolean expression: conditions (eligibility, suppression, `requires`) are
/// evaluated to a `Bool` directly, with no `Value` built for the logic between their reads.
package typealias BoolEvaluation = @Sendable (any EvaluationContext) -> Bool

/// Compiles a `TypedExpression` into nested closures, once, so evaluating it is a walk of
/// direct calls with no tree interpretation and no allocation beyond the values read.
///
/// Evaluation is total. An absent value (`.null`) propagates through arithmetic and
/// functions; comparisons and `in` with an absent operand are false; logic treats it as
/// false. Integer arithmetic wraps on overflow; division and remainder by zero yield 0.
enum ExpressionEvaluator {
    /// - Parameter slots: reads bound to slots (`ExpressionEnvironment.slots`).
    static func compile(_ expression: TypedExpression, slots: [[String]: Int] = [:]) -> ExpressionEvaluation {
        let compile = { (e: TypedExpression) in Self.compile(e, slots: slots) }
        switch expression {
        case .constant(let value):
            return { _ in value }
        case .read(let path):
            if let slot = slots[path] { return { $0.value(slot: slot, path: path) ?? .null } }
            return { $0.value(at: path) ?? .null }
        case .has(let path):
            if let slot = slots[path] {
                return { context in
                    guard let value = context.value(slot: slot, path: path) else { return .bool(false) }
                    return .bool(value != .null)
                }
            }
            return { context in
                guard let value = context.value(at: path) else { return .bool(false) }
                return .bool(value != .null)
            }
        case .list(let items):
            let parts = items.map(compile)
            return { context in .list(parts.map { $0(context) }) }
        case .not(let operand):
            let f = compile(operand)
            return { .bool(!f($0).isTrue) }
        case .negate(let operand, let result):
            let f = compile(operand)
            return { context in
                guard let n = f(context).integer else { return .null }
                return .wrap(0 &- n, as: result)
            }
        case .and(let l, let r):
            let a = compile(l), b = compile(r)
            return { context in .bool(a(context).isTrue && b(context).isTrue) }
        case .or(let l, let r):
            let a = compile(l), b = compile(r)
            return { context in .bool(a(context).isTrue || b(context).isTrue) }
        case .arithmetic(let op, let l, let r, let result):
            return arithmetic(op, compile(l), compile(r), result: result)
        case .compare(let op, let l, let r):
            return compare(op, compile(l), compile(r))
        case .member(let element, let list):
            let e = compile(element), l = compile(list)
            return { context in
                let x = e(context)
                guard x != .null, case .list(let items) = l(context) else { return .bool(false) }
                return .bool(items.contains(x))
            }
        case .coalesce(let l, let r):
            let a = compile(l), b = compile(r)
            return { context in
                let x = a(context)
                return x == .null ? b(context) : x
            }
        case .conditional(let c, let t, let e):
            let fc = compile(c), ft = compile(t), fe = compile(e)
            return { context in fc(context).isTrue ? ft(context) : fe(context) }
        case .since(let operand):
            let f = compile(operand)
            return { context in
                guard case .instant(let t) = f(context), case .instant(let now)? = context.sinceInstant() else { return .null }
                return .duration(now &- t)
            }
        case .size(let operand):
            let f = compile(operand)
            return { context in
                guard case .list(let items) = f(context) else { return .null }
                return .int(items.count)
            }
        case .minimum(let l, let r):
            let a = compile(l), b = compile(r)
            return { context in
                let x = a(context), y = b(context)
                guard let m = x.integer, let n = y.integer else { return .null }
                return m <= n ? x : y
            }
        case .maximum(let l, let r):
            let a = compile(l), b = compile(r)
            return { context in
                let x = a(context), y = b(context)
                guard let m = x.integer, let n = y.integer else { return .null }
                return m >= n ? x : y
            }
        case .sent(let target, let window):
            return { .int($0.sent(target, within: window)) }
        case .sentWithStatuses(let target, let window, let statuses):
            return { .int($0.sent(target, within: window, statuses: statuses)) }
        case .index(let map, let key):
            let m = compile(map), k = compile(key)
            return { context in
                guard case .map(let entries) = m(context), case .string(let name) = k(context) else { return .null }
                return entries[name] ?? .null
            }
        case .present(let entry):
            let f = compile(entry)
            return { context in
                if case .null = f(context) { return .bool(false) }
                return .bool(true)
            }
        case .sentSince(let target, let instant, let statuses):
            let f = compile(instant)
            return { context in
                // An absent instant (an optional field) makes the count absent, like `since()`.
                guard case .instant(let t) = f(context) else { return .null }
                return .int(context.sent(target, after: t, statuses: statuses))
            }
        case .localDate(let instant):
            let f = compile(instant)
            return { context in
                // An absent instant (an optional field) or a context without a zone: absent.
                guard case .instant(let t) = f(context), let days = context.localDate(of: t) else { return .null }
                return .date(days)
            }
        }
    }

    /// Compiles a `bool` expression to a closure that returns its truth (`.bool(true)` is
    /// true, anything else, absent values included, false): the same answer as
    /// `compile(expression)(context).isTrue`, without building values for `!`, `&&`, `||`,
    /// comparisons and `in`. Other nodes evaluate through `compile`.
    static func compileBool(_ expression: TypedExpression, slots: [[String]: Int] = [:]) -> BoolEvaluation {
        let bool = { (e: TypedExpression) in Self.compileBool(e, slots: slots) }
        switch expression {
        case .constant(let value):
            let truth = value.isTrue
            return { _ in truth }
        case .read(let path):
            if let slot = slots[path] { return { $0.value(slot: slot, path: path)?.isTrue ?? false } }
            return { $0.value(at: path)?.isTrue ?? false }
        case .not(let operand):
            let f = bool(operand)
            return { !f($0) }
        case .and(let l, let r):
            let a = bool(l), b = bool(r)
            return { a($0) && b($0) }
        case .or(let l, let r):
            let a = bool(l), b = bool(r)
            return { a($0) || b($0) }
        case .compare(let op, let l, let r) where op == .equal || op == .notEqual:
            // An absent side makes both `==` and `!=` false.
            let a = compile(l, slots: slots), b = compile(r, slots: slots), equal = op == .equal
            return { context in
                let x = a(context)
                if case .null = x { return false }
                let y = b(context)
                if case .null = y { return false }
                return Value.same(x, y) == equal
            }
        case .member(let element, list: .constant(.list(let items))):
            let e = compile(element, slots: slots)
            // A constant list of strings (`user.tier in ['free', 'pro']`) is searched as strings.
            let strings = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
            if strings.count == items.count {
                return { context in
                    guard case .string(let s) = e(context) else { return false }
                    return strings.contains(s)
                }
            }
            return { context in
                let x = e(context)
                if case .null = x { return false }
                return items.contains { Value.same($0, x) }
            }
        default:
            let f = compile(expression, slots: slots)
            return { f($0).isTrue }
        }
    }

    private static func arithmetic(
        _ op: BinaryOperator, _ a: @escaping ExpressionEvaluation, _ b: @escaping ExpressionEvaluation, result: ValueType
    ) -> ExpressionEvaluation {
        let combine: @Sendable (Int, Int) -> Int = switch op {
        case .add: { $0 &+ $1 }
        case .subtract: { $0 &- $1 }
        case .multiply: { $0 &* $1 }
        case .divide: { $1 == 0 ? 0 : $0.dividedReportingOverflow(by: $1).partialValue }
        default: { $1 == 0 ? 0 : $0.remainderReportingOverflow(dividingBy: $1).partialValue }
        }
        return { context in
            guard let m = a(context).integer, let n = b(context).integer else { return .null }
            return .wrap(combine(m, n), as: result)
        }
    }

    private static func compare(
        _ op: BinaryOperator, _ a: @escaping ExpressionEvaluation, _ b: @escaping ExpressionEvaluation
    ) -> ExpressionEvaluation {
        switch op {
        case .equal:
            return { context in
                let x = a(context), y = b(context)
                return .bool(x != .null && y != .null && x == y)
            }
        case .notEqual:
            return { context in
                let x = a(context), y = b(context)
                return .bool(x != .null && y != .null && x != y)
            }
        default:
            let test: @Sendable (Int) -> Bool = switch op {
            case .less: { $0 < 0 }
            case .lessEqual: { $0 <= 0 }
            case .greater: { $0 > 0 }
            default: { $0 >= 0 }
            }
            return { context in
                guard let order = order(a(context), b(context)) else { return .bool(false) }
                return .bool(test(order))
            }
        }
    }

    /// -1, 0 or 1; nil when the values are not ordered against each other.
    static func order(_ x: Value, _ y: Value) -> Int? {
        if case .string(let s) = x, case .string(let t) = y { return s < t ? -1 : (s == t ? 0 : 1) }
        guard let m = x.integer, let n = y.integer else { return nil }
        return m < n ? -1 : (m == n ? 0 : 1)
    }
}
