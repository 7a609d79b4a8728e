import HeraldSyntax

/// Type-checks a parsed expression against an environment, producing a `TypedExpression`
/// and collecting every type error with the span of its sub-expression.
///
/// Optionals follow a flow rule: a `T?` name may be used as a `T` only where a `has()` test
/// proves it present. `facts` holds the paths proven present at the node being checked.
struct ExpressionChecker {
    let scalar: YAMLScalar
    let environment: ExpressionEnvironment
    private let utf8: [UInt8]
    var diagnostics: [Diagnostic] = []
    /// Name paths read, in first-use order.
    private(set) var paths: [[String]] = []
    private(set) var requiredPaths: [[String]] = []
    /// The windows of every `sent()` call, in order (a store reads this much of the ledger).
    private(set) var sentWindows: [SentWindow] = []
    /// The targets of every `sent(target, since(…))` call: a window measured from an instant
    /// has no length, so a store keeps these targets' entries whatever their age.
    private(set) var sinceTargets: [String] = []
    private var seen: Set<[String]> = []

    static let functions = ["has", "since", "size", "time", "date", "min", "max", "abs", "sent", "localDate", "days"]
    static let windows: [String: SentWindow] = [
        "day": .day, "week": .week, "calendar_week": .calendarWeek, "month": .month, "lifetime": .lifetime,
    ]
    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// A checked sub-expression and its static type.
    struct Checked {
        var expression: TypedExpression
        var type: ValueType
    }

    init(scalar: YAMLScalar, environment: ExpressionEnvironment) {
        self.scalar = scalar
        self.environment = environment
        self.utf8 = Array(scalar.value.utf8)
    }

    // MARK: - Positions

    /// The file position of a UTF-8 offset of the expression (the scalar's anchors keep
    /// columns counting Unicode scalars).
    func location(_ offset: Int) -> SourceLocation {
        scalar.location(ofValueOffset: offset)
    }

    func span(_ range: Range<Int>) -> SourceSpan {
        SourceSpan(start: location(range.lowerBound), end: location(range.upperBound))
    }

    private mutating func error(_ code: DiagnosticCode, _ message: String, _ range: Range<Int>, suggestion: String? = nil) {
        diagnostics.append(Diagnostic(code, message, at: span(range), severity: .error, suggestion: suggestion))
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: utf8[max(0, range.lowerBound)..<min(utf8.count, range.upperBound)], as: UTF8.self)
    }

    private mutating func record(_ path: [String], optional: Bool) {
        if seen.insert(path).inserted {
            paths.append(path)
            if !optional { requiredPaths.append(path) }
        }
    }

    // MARK: - Names

    private static func key(_ path: [String]) -> String { path.joined(separator: "\u{0}") }

    /// Resolves a dotted name to its path and declared type, reporting unknown names.
    private mutating func resolve(_ segments: [NameSegment]) -> (path: [String], type: ValueType)? {
        let start = segments[0].range.lowerBound
        let root = segments[0].name
        guard var node = environment.roots[root] else {
            if root == "null" {
                error(.exprUnknownName, "`null` is not a value: test with `has(x)` or default with `x ?? value`", segments[0].range)
            } else {
                error(.exprUnknownName, "unknown name `\(root)`", segments[0].range,
                      suggestion: Suggestions.closest(to: root, in: environment.roots.keys))
            }
            return nil
        }
        var path = [root]
        for segment in segments.dropFirst() {
            let range = start..<segment.range.upperBound
            switch node {
            case .object(let fields):
                guard let next = fields[segment.name] else {
                    let suggestion = Suggestions.closest(to: segment.name, in: fields.keys)
                    error(.exprUnknownName, "unknown name `\((path + [segment.name]).joined(separator: "."))`", range,
                          suggestion: suggestion.map { (path + [$0]).joined(separator: ".") })
                    return nil
                }
                node = next
            case .value(let type):
                error(.exprUnknownName, "`\(path.joined(separator: "."))` is a \(type) and has no field `\(segment.name)`", range)
                return nil
            }
            path.append(segment.name)
        }
        switch node {
        case .value(let type):
            return (path, type)
        case .object(let fields):
            let range = start..<segments[segments.count - 1].range.upperBound
            let example = fields.keys.sorted().first.map { " such as `\((path + [$0]).joined(separator: "."))`" } ?? ""
            error(.exprUnknownName, "`\(path.joined(separator: "."))` is a group of fields, not a value; name one of its fields\(example)", range)
            return nil
        }
    }

    // MARK: - Flow facts

    /// Paths proven present when `node` evaluates to `value`.
    private mutating func facts(_ node: ExpressionNode, when value: Bool) -> Set<String> {
        switch node.kind {
        case .call(name: "has", _, let arguments) where arguments.count == 1:
            if value, case .name(let segments) = arguments[0].kind { return [Self.key(segments.map(\.name))] }
            return []
        case .unary(.not, let operand):
            return facts(operand, when: !value)
        case .binary(.and, let l, let r) where value:
            return facts(l, when: true).union(facts(r, when: true))
        case .binary(.or, let l, let r) where !value:
            return facts(l, when: false).union(facts(r, when: false))
        default:
            return []
        }
    }

    // MARK: - Expressions

    mutating func check(_ node: ExpressionNode, _ known: Set<String>) -> Checked? {
        switch node.kind {
        case .bool(let b): return Checked(expression: .constant(.bool(b)), type: .bool)
        case .int(let n): return Checked(expression: .constant(.int(n)), type: .int)
        case .string(let s): return Checked(expression: .constant(.string(s)), type: .string)
        case .duration(let s): return Checked(expression: .constant(.duration(s)), type: .duration)
        case .list(let items): return checkList(node, items, known)
        case .name(let segments): return checkName(segments, node.range, known)
        case .unary(let op, let operand): return checkUnary(op, operand, node, known)
        case .binary(let op, let l, let r): return checkBinary(op, l, r, node, known)
        case .conditional(let c, let t, let e): return checkConditional(c, t, e, known)
        case .call(let name, let nameRange, let arguments): return checkCall(name, nameRange, arguments, node, known)
        case .index:
            guard checkIndex(node, known) != nil else { return nil }
            error(.exprOptionalWithoutHas, "`\(text(node.range))` may be absent (the key may not be in the map): use `\(text(node.range)) ?? <default>`", node.range)
            return nil
        }
    }

    /// `m[key]` (docs/language.md § Maps): `m` a `map<T>` field (`H0276` for anything else), `key`
    /// a string or an enum (`H0277`). The entry's type `T`; the caller makes it optional (only
    /// `??` and `has()` may read it).
    private mutating func checkIndex(_ node: ExpressionNode, _ known: Set<String>) -> Checked? {
        guard case .index(let base, let keyNode) = node.kind else { return nil }
        guard case .name(let segments) = base.kind, let (path, type) = resolve(segments) else { return nil }
        guard case .map(let element) = type else {
            error(.mapIndexNotAMap, "`\(path.joined(separator: "."))` is \(type), not a map: only a `map<T>` field is read by key", base.range)
            return nil
        }
        record(path, optional: false)
        guard let key = check(keyNode, known) else { return nil }
        switch key.type {
        case .string, .enumeration: break
        default:
            error(.mapKeyType, "a map's key is a string, found \(key.type)", keyNode.range)
            return nil
        }
        return Checked(expression: .index(.read(path), key: key.expression), type: element)
    }

    private mutating func checkName(_ segments: [NameSegment], _ range: Range<Int>, _ known: Set<String>) -> Checked? {
        guard let (path, type) = resolve(segments) else { return nil }
        record(path, optional: type.isOptional)
        if case .map(let element) = type {
            error(.mapWithoutKey, "`\(path.joined(separator: "."))` is a map<\(element)>: read one entry by key, such as `\(path.joined(separator: "."))[params.id] ?? <default>`", range)
            return nil
        }
        if case .optional(let inner) = type {
            guard known.contains(Self.key(path)) else {
                error(.exprOptionalWithoutHas, "optional `\(path.joined(separator: "."))` used without `has()` or `??`", range)
                return nil
            }
            return Checked(expression: .read(path), type: inner)
        }
        return Checked(expression: .read(path), type: type)
    }

    private mutating func checkList(_ node: ExpressionNode, _ items: [ExpressionNode], _ known: Set<String>) -> Checked? {
        var checked: [Checked] = []
        var ok = true
        for item in items {
            guard let c = check(item, known) else { ok = false; continue }
            if let first = checked.first, !Self.compatible(first.type, c.type) {
                error(.exprTypeMismatch, "list items must have one type: found \(first.type) and \(c.type)", item.range)
                ok = false
                continue
            }
            checked.append(c)
        }
        guard ok else { return nil }
        let element = checked.first?.type ?? .string
        return Checked(expression: Self.makeList(checked.map(\.expression)), type: .list(element))
    }

    private static func makeList(_ items: [TypedExpression]) -> TypedExpression {
        var constants: [Value] = []
        for item in items {
            guard case .constant(let v) = item else { return .list(items) }
            constants.append(v)
        }
        return .constant(.list(constants))
    }

    private mutating func checkUnary(_ op: UnaryOperator, _ operand: ExpressionNode, _ node: ExpressionNode, _ known: Set<String>) -> Checked? {
        guard let c = check(operand, known) else { return nil }
        switch op {
        case .not:
            guard c.type == .bool else {
                error(.exprTypeMismatch, "`!` needs a bool, found \(c.type)", operand.range)
                return nil
            }
            if case .constant(.bool(let b)) = c.expression { return Checked(expression: .constant(.bool(!b)), type: .bool) }
            return Checked(expression: .not(c.expression), type: .bool)
        case .negate:
            guard c.type == .int || c.type == .duration else {
                error(.exprTypeMismatch, "unary `-` needs an int or a duration, found \(c.type)", operand.range)
                return nil
            }
            if case .constant(let v) = c.expression, let n = v.integer {
                return Checked(expression: .constant(.wrap(0 &- n, as: c.type)), type: c.type)
            }
            return Checked(expression: .negate(c.expression, result: c.type), type: c.type)
        }
    }

    /// Same type, or an enum and a string (an enum's values are strings at run time).
    private static func compatible(_ a: ValueType, _ b: ValueType) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.enumeration, .string), (.string, .enumeration): return true
        default: return false
        }
    }

    /// Checks `node` where a value of `target` is wanted: a string literal (or a list of them)
    /// becomes an enum case or a weekday, validated against the cases.
    private mutating func checkAgainst(_ node: ExpressionNode, _ target: ValueType?, _ known: Set<String>) -> Checked? {
        guard let target else { return check(node, known) }
        switch (node.kind, target) {
        case (.string(let s), .enumeration(let e)):
            guard e.cases.contains(s) else {
                error(.exprUnknownEnumCase, "`\(s)` is not a case of `\(target)`: use one of \(e.cases.map { "`\($0)`" }.joined(separator: ", "))",
                      node.range, suggestion: Suggestions.closest(to: s, in: e.cases))
                return nil
            }
            return Checked(expression: .constant(.string(s)), type: target)
        case (.string(let s), .weekday):
            guard let index = Self.weekdays.firstIndex(of: s) else {
                error(.exprUnknownEnumCase, "`\(s)` is not a weekday: use one of \(Self.weekdays.map { "`\($0)`" }.joined(separator: ", "))",
                      node.range, suggestion: Suggestions.closest(to: s, in: Self.weekdays))
                return nil
            }
            return Checked(expression: .constant(.weekday(index + 1)), type: .weekday)
        case (.list(let items), .list(let element)) where !items.isEmpty && items.allSatisfy({ if case .string = $0.kind { true } else { false } }):
            var values: [Value] = []
            var ok = true
            for item in items {
                guard let c = checkAgainst(item, element, known), case .constant(let v) = c.expression else { ok = false; continue }
                values.append(v)
            }
            return ok ? Checked(expression: .constant(.list(values)), type: target) : nil
        default:
            return check(node, known)
        }
    }

    private static func isLiteral(_ node: ExpressionNode) -> Bool {
        switch node.kind {
        case .string: true
        case .list(let items): !items.isEmpty && items.allSatisfy { if case .string = $0.kind { true } else { false } }
        default: false
        }
    }

    /// A checked pair where either side may be a string literal standing for the other's
    /// enum or weekday values.
    private mutating func checkPair(_ l: ExpressionNode, _ r: ExpressionNode, _ known: Set<String>, rightIsList: Bool = false) -> (Checked, Checked)? {
        if Self.isLiteral(r) && !Self.isLiteral(l) {
            let a = check(l, known)
            let target = a.map { rightIsList ? ValueType.list($0.type) : $0.type }
            let b = checkAgainst(r, Self.needsCoercion(target) ? target : nil, known)
            guard let a, let b else { return nil }
            return (a, b)
        }
        if Self.isLiteral(l) && !Self.isLiteral(r) {
            let b = check(r, known)
            var target: ValueType? = b?.type
            if rightIsList { if case .list(let e)? = target { target = e } else { target = nil } }
            let a = checkAgainst(l, Self.needsCoercion(target) ? target : nil, known)
            guard let a, let b else { return nil }
            return (a, b)
        }
        let a = check(l, known), b = check(r, known)
        guard let a, let b else { return nil }
        return (a, b)
    }

    private static func needsCoercion(_ type: ValueType?) -> Bool {
        switch type {
        case .enumeration?, .weekday?, .list(.enumeration)?, .list(.weekday)?: true
        default: false
        }
    }

    private mutating func checkBinary(_ op: BinaryOperator, _ l: ExpressionNode, _ r: ExpressionNode, _ node: ExpressionNode, _ known: Set<String>) -> Checked? {
        switch op {
        case .and, .or:
            let a = check(l, known)
            let b = check(r, known.union(facts(l, when: op == .and)))
            guard let a, let b else { return nil }
            for (c, n) in [(a, l), (b, r)] where c.type != .bool {
                error(.exprTypeMismatch, "`\(op.rawValue)` needs bool operands, found \(c.type)", n.range)
                return nil
            }
            return Checked(expression: op == .and ? .and(a.expression, b.expression) : .or(a.expression, b.expression), type: .bool)
        case .coalesce:
            return checkCoalesce(l, r, known)
        case .equal, .notEqual:
            guard let (a, b) = checkPair(l, r, known) else { return nil }
            guard Self.compatible(a.type, b.type) else {
                error(.exprTypeMismatch, "cannot compare \(a.type) with \(b.type) using `\(op.rawValue)`", node.range)
                return nil
            }
            return Checked(expression: .compare(op, a.expression, b.expression), type: .bool)
        case .in:
            guard let (a, b) = checkPair(l, r, known, rightIsList: true) else { return nil }
            if case .list([]) = r.kind { return Checked(expression: .constant(.bool(false)), type: .bool) }
            guard case .list(let element) = b.type else {
                error(.exprTypeMismatch, "`in` needs a list on its right, found \(b.type)", r.range)
                return nil
            }
            guard Self.compatible(a.type, element) else {
                error(.exprTypeMismatch, "cannot look for \(a.type) in a \(b.type)", node.range)
                return nil
            }
            return Checked(expression: .member(a.expression, list: b.expression), type: .bool)
        case .less, .lessEqual, .greater, .greaterEqual:
            let a = check(l, known), b = check(r, known)
            guard let a, let b else { return nil }
            let ordered: Set<ValueType> = [.int, .duration, .instant, .time, .date, .string]
            guard a.type == b.type, ordered.contains(a.type) else {
                let why = a.type == b.type ? "\(a.type) values have no order" : "cannot compare \(a.type) with \(b.type)"
                error(.exprTypeMismatch, "\(why) using `\(op.rawValue)`", node.range)
                return nil
            }
            return Checked(expression: .compare(op, a.expression, b.expression), type: .bool)
        case .add, .subtract, .multiply, .divide, .remainder:
            let a = check(l, known), b = check(r, known)
            guard let a, let b else { return nil }
            guard let result = Self.arithmeticType(op, a.type, b.type) else {
                error(.exprTypeMismatch, "cannot apply `\(op.rawValue)` to \(a.type) and \(b.type)", node.range)
                return nil
            }
            return Checked(expression: .arithmetic(op, a.expression, b.expression, result: result), type: result)
        }
    }

    static func arithmeticType(_ op: BinaryOperator, _ a: ValueType, _ b: ValueType) -> ValueType? {
        switch (op, a, b) {
        case (_, .int, .int): .int
        case (.add, .instant, .duration), (.add, .duration, .instant), (.subtract, .instant, .duration): .instant
        case (.subtract, .instant, .instant): .duration
        case (.add, .duration, .duration), (.subtract, .duration, .duration): .duration
        case (.multiply, .duration, .int), (.multiply, .int, .duration): .duration
        default: nil
        }
    }

    private mutating func checkCoalesce(_ l: ExpressionNode, _ r: ExpressionNode, _ known: Set<String>) -> Checked? {
        var left: Checked?
        var failedLeft = false
        if case .index = l.kind {
            left = checkIndex(l, known)
            failedLeft = left == nil
        } else if case .name(let segments) = l.kind {
            if let (path, type) = resolve(segments) {
                record(path, optional: type.isOptional)
                if case .optional(let inner) = type {
                    left = Checked(expression: .read(path), type: inner)
                } else {
                    error(.exprNotOptional, "`\(path.joined(separator: "."))` is never absent: `??` needs an optional on its left", l.range)
                    failedLeft = true
                }
            } else {
                failedLeft = true
            }
        } else if check(l, known) != nil {
            error(.exprNotOptional, "`??` needs an optional field on its left, such as `state.lastOpenedAt`", l.range)
            failedLeft = true
        } else {
            failedLeft = true
        }
        let right = checkAgainst(r, Self.needsCoercion(left?.type) ? left?.type : nil, known)
        guard !failedLeft, let left, let right else { return nil }
        guard Self.compatible(left.type, right.type) else {
            error(.exprTypeMismatch, "the default of `??` must be \(left.type), found \(right.type)", r.range)
            return nil
        }
        return Checked(expression: .coalesce(left.expression, right.expression), type: left.type)
    }

    private mutating func checkConditional(_ c: ExpressionNode, _ t: ExpressionNode, _ e: ExpressionNode, _ known: Set<String>) -> Checked? {
        let condition = check(c, known)
        let thenFacts = known.union(facts(c, when: true))
        let elseFacts = known.union(facts(c, when: false))
        var a: Checked?, b: Checked?
        if Self.isLiteral(e) && !Self.isLiteral(t) {
            a = check(t, thenFacts)
            b = checkAgainst(e, Self.needsCoercion(a?.type) ? a?.type : nil, elseFacts)
        } else if Self.isLiteral(t) && !Self.isLiteral(e) {
            b = check(e, elseFacts)
            a = checkAgainst(t, Self.needsCoercion(b?.type) ? b?.type : nil, thenFacts)
        } else {
            a = check(t, thenFacts)
            b = check(e, elseFacts)
        }
        guard let condition, let a, let b else { return nil }
        guard condition.type == .bool else {
            error(.exprTypeMismatch, "the condition of `? :` must be bool, found \(condition.type)", c.range)
            return nil
        }
        guard Self.compatible(a.type, b.type) else {
            error(.exprTypeMismatch, "both branches of `? :` must have one type: found \(a.type) and \(b.type)", t.range.lowerBound..<e.range.upperBound)
            return nil
        }
        if case .constant(.bool(let value)) = condition.expression {
            return value ? a : b
        }
        return Checked(expression: .conditional(condition.expression, a.expression, b.expression), type: a.type)
    }

    // MARK: - Calls

    private mutating func arity(_ name: String, _ expected: Int, _ arguments: [ExpressionNode], _ node: ExpressionNode) -> Bool {
        guard arguments.count == expected else {
            let plural = expected == 1 ? "argument" : "arguments"
            error(.exprArgumentCount, "`\(name)()` takes \(expected) \(plural), found \(arguments.count)", node.range)
            return false
        }
        return true
    }

    private mutating func checkCall(_ name: String, _ nameRange: Range<Int>, _ arguments: [ExpressionNode], _ node: ExpressionNode, _ known: Set<String>) -> Checked? {
        guard Self.functions.contains(name) else {
            error(.exprUnknownFunction, "unknown function `\(name)`", nameRange,
                  suggestion: Suggestions.closest(to: name, in: Self.functions))
            return nil
        }
        switch name {
        case "has":
            guard arity(name, 1, arguments, node) else { return nil }
            if case .index = arguments[0].kind {
                guard let entry = checkIndex(arguments[0], known) else { return nil }
                return Checked(expression: .present(entry.expression), type: .bool)
            }
            guard case .name(let segments) = arguments[0].kind else {
                error(.exprNotOptional, "`has()` takes an optional field name, such as `has(state.lastOpenedAt)`", arguments[0].range)
                return nil
            }
            guard let (path, type) = resolve(segments) else { return nil }
            record(path, optional: type.isOptional)
            guard type.isOptional else {
                error(.exprNotOptional, "`\(path.joined(separator: "."))` is never absent: `has()` needs an optional field", arguments[0].range)
                return nil
            }
            return Checked(expression: .has(path), type: .bool)
        case "since":
            guard arity(name, 1, arguments, node), let t = check(arguments[0], known) else { return nil }
            guard t.type == .instant else {
                error(.exprTypeMismatch, "`since()` needs an instant, found \(t.type)", arguments[0].range)
                return nil
            }
            record(["now"], optional: false)
            return Checked(expression: .since(t.expression), type: .duration)
        case "size":
            guard arity(name, 1, arguments, node), let list = check(arguments[0], known) else { return nil }
            guard case .list = list.type else {
                error(.exprTypeMismatch, "`size()` needs a list, found \(list.type)", arguments[0].range)
                return nil
            }
            if case .constant(.list(let items)) = list.expression { return Checked(expression: .constant(.int(items.count)), type: .int) }
            return Checked(expression: .size(list.expression), type: .int)
        case "time", "date":
            guard arity(name, 1, arguments, node) else { return nil }
            guard case .string(let s) = arguments[0].kind else {
                let example = name == "time" ? "time(\"09:00\")" : "date(\"2026-03-08\")"
                error(.exprTypeMismatch, "`\(name)()` takes a quoted literal, such as `\(example)`", arguments[0].range)
                return nil
            }
            if name == "time" {
                guard let seconds = Self.parseTime(s) else {
                    error(.exprInvalidTimeOrDate, "`\(s)` is not a time of day: write `HH:MM`, 24-hour (`09:00`)", arguments[0].range)
                    return nil
                }
                return Checked(expression: .constant(.time(seconds)), type: .time)
            }
            guard let days = Self.parseDate(s) else {
                error(.exprInvalidTimeOrDate, "`\(s)` is not a date: write `YYYY-MM-DD` (`2026-03-08`)", arguments[0].range)
                return nil
            }
            return Checked(expression: .constant(.date(days)), type: .date)
        case "abs":
            // `max(x, -x)`: no new evaluator (`abs` of the smallest int wraps to itself).
            guard arity(name, 1, arguments, node), let a = check(arguments[0], known) else { return nil }
            guard a.type == .int || a.type == .duration else {
                error(.exprTypeMismatch, "`abs()` needs an int or a duration, found \(a.type)", arguments[0].range)
                return nil
            }
            if case .constant(let v) = a.expression, let n = v.integer {
                return Checked(expression: .constant(.wrap(n < 0 ? 0 &- n : n, as: a.type)), type: a.type)
            }
            return Checked(expression: .maximum(a.expression, .negate(a.expression, result: a.type)), type: a.type)
        case "localDate":
            // P4: the local date of an instant, in the zone `local.date` is read in (the engine's
            // resolved zone for the decision). docs/language.md § Functions, docs/time.md.
            guard arity(name, 1, arguments, node), let t = check(arguments[0], known) else { return nil }
            guard t.type == .instant else {
                let written = text(arguments[0].range)
                let message = t.type == .date
                    ? "`localDate()` needs an instant, but `\(written)` is already a date: use it as it is"
                    : "`localDate()` needs an instant, found `\(written)` of type `\(t.type)`"
                error(.exprLocalDateNotInstant, message, arguments[0].range)
                return nil
            }
            return Checked(expression: .localDate(t.expression), type: .date)
        case "days":
            // P4: whole calendar days from date `a` to date `b`, `b - a` over day numbers: no zone
            // is read, so a DST change in between is still one day (docs/time.md).
            guard arity(name, 2, arguments, node) else { return nil }
            let a = check(arguments[0], known), b = check(arguments[1], known)
            var dates = true
            for (argument, checked) in zip(arguments, [a, b]) {
                guard let checked, checked.type != .date else { continue }
                dates = false
                let written = text(argument.range)
                let message = checked.type == .instant
                    ? "`days()` counts days between two dates, and `\(written)` is an instant: write `localDate(\(written))`"
                    : "`days()` counts days between two dates, found `\(written)` of type `\(checked.type)`"
                error(.exprDaysNotDates, message, argument.range)
            }
            guard dates, let a, let b else { return nil }
            if case .constant(.date(let m)) = a.expression, case .constant(.date(let n)) = b.expression {
                return Checked(expression: .constant(.int(n &- m)), type: .int)
            }
            return Checked(expression: .arithmetic(.subtract, b.expression, a.expression, result: .int), type: .int)
        case "min", "max":
            guard arity(name, 2, arguments, node) else { return nil }
            let a = check(arguments[0], known), b = check(arguments[1], known)
            guard let a, let b else { return nil }
            guard a.type == b.type, a.type == .int || a.type == .duration else {
                error(.exprTypeMismatch, "`\(name)()` needs two ints or two durations, found \(a.type) and \(b.type)", node.range)
                return nil
            }
            let e: TypedExpression = name == "min" ? .minimum(a.expression, b.expression) : .maximum(a.expression, b.expression)
            return Checked(expression: e, type: a.type)
        default:  // sent
            guard arguments.count == 3 || arity(name, 2, arguments, node) else { return nil }
            var target: String?
            switch arguments[0].kind {
            case .string(let s): target = s
            case .name(let segments) where segments.count == 1: target = segments[0].name
            default:
                error(.exprUnknownSentTarget, "`sent()` counts a notification type or category: name one, such as `sent(reminders, day)`", arguments[0].range)
            }
            if let t = target, !environment.sentTargets.contains(t) {
                error(.exprUnknownSentTarget, "`sent()` names `\(t)`, which is not a notification type or category", arguments[0].range,
                      suggestion: Suggestions.closest(to: t, in: environment.sentTargets))
                target = nil
            }
            var window: SentWindow?
            var since: TypedExpression?
            switch arguments[1].kind {
            case .call(name: "since", _, let sinceArguments):
                // A window measured from an instant the user's data holds (P16: a lapse since
                // `state.lastActiveAt`). docs/language.md § Functions, docs/time.md § Windows.
                guard arity("since", 1, sinceArguments, arguments[1]) else { return nil }
                let instant = sinceArguments[0]
                guard case .name(let segments) = instant.kind, let root = segments.first?.name,
                      ["state", "user", "params"].contains(root) else {
                    error(.exprSinceWindowNotField,
                          "the window `\(text(arguments[1].range))` is not measured from a field: write `since(state.<path>)` (or `user.`, `params.`)",
                          instant.range)
                    return nil
                }
                guard let checked = check(instant, known) else { return nil }
                guard checked.type == .instant else {
                    error(.exprSinceWindowNotInstant,
                          "`sent()` counts since `\(text(instant.range))`, which is of type `\(checked.type)`, not `instant`",
                          instant.range)
                    return nil
                }
                since = checked.expression
            case .name(let segments) where segments.count == 1 && Self.windows[segments[0].name] != nil:
                window = Self.windows[segments[0].name]
            case .duration(let seconds) where seconds > 0:
                window = .duration(seconds)
            default:
                let written = text(arguments[1].range)
                error(.exprInvalidSentWindow,
                      "`\(written)` is not a window of `sent()`: use `day`, `week`, `calendar_week`, `month`, `lifetime`, a duration such as `48h` or `since(state.<instant>)`",
                      arguments[1].range, suggestion: Suggestions.closest(to: written, in: Self.windows.keys))
            }
            if let window { sentWindows.append(window) }
            var statuses: [String]?
            if arguments.count == 3 {
                statuses = []
                let allowed = ["scheduled", "delivered", "opened", "dismissed", "cancelled"]
                if case .list(let items) = arguments[2].kind, !items.isEmpty {
                    for item in items {
                        var word: String?
                        switch item.kind {
                        case .string(let s): word = s
                        case .name(let segments) where segments.count == 1: word = segments[0].name
                        default: break
                        }
                        if let word, allowed.contains(word) {
                            if !statuses!.contains(word) { statuses!.append(word) }
                        } else {
                            let written = text(item.range)
                            error(.exprInvalidSentStatus, "`\(written)` is not a ledger status: use `scheduled`, `delivered`, `opened`, `dismissed` or `cancelled`",
                                  item.range, suggestion: Suggestions.closest(to: written, in: allowed))
                            statuses = nil
                            break
                        }
                    }
                } else {
                    error(.exprInvalidSentStatus, "the third argument of `sent()` is a list of ledger statuses, such as `[dismissed]`", arguments[2].range)
                    statuses = nil
                }
                if statuses == nil { return nil }
            }
            if let target, let since {
                sinceTargets.append(target)
                return Checked(expression: .sentSince(target, since, statuses), type: .int)
            }
            guard let target, let window else { return nil }
            if let statuses { return Checked(expression: .sentWithStatuses(target, window, statuses), type: .int) }
            return Checked(expression: .sent(target, window), type: .int)
        }
    }

    // MARK: - Literal functions

    /// Seconds since midnight of `HH:MM` (24-hour, two digits each).
    static func parseTime(_ s: String) -> Int? {
        let b = Array(s.utf8)
        guard b.count == 5, b[2] == 0x3A else { return nil }
        func d(_ i: Int) -> Int? { b[i] >= 0x30 && b[i] <= 0x39 ? Int(b[i] - 0x30) : nil }
        guard let h1 = d(0), let h2 = d(1), let m1 = d(3), let m2 = d(4) else { return nil }
        let hour = h1 * 10 + h2, minute = m1 * 10 + m2
        guard hour < 24, minute < 60 else { return nil }
        return hour * 3600 + minute * 60
    }

    /// Days since 1970-01-01 of `YYYY-MM-DD` (proleptic Gregorian).
    static func parseDate(_ s: String) -> Int? {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D else { return nil }
        func number(_ r: Range<Int>) -> Int? {
            var n = 0
            for i in r {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), (1...12).contains(m) else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard d >= 1, d <= lengths[m - 1] else { return nil }
        // Howard Hinnant's days_from_civil.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
