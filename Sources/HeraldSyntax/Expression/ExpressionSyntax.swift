// A closed family: the expression syntax tree (a node, the segments of a name, the unary and
// binary operators), the parser's only output.
/// The syntax tree of one expression. Every node keeps its range: UTF-8 offsets into the
/// expression text (the YAML scalar's value), which `YAMLScalar.span(ofValueRange:)` turns
/// into file positions.
public struct ExpressionNode: Sendable, Hashable {
    public indirect enum Kind: Sendable, Hashable {
        case bool(Bool)
        case int(Int)
        case string(String)
        /// Seconds.
        case duration(Int)
        case list([ExpressionNode])
        /// A dotted name such as `state.maintenance.dueToday`.
        case name([NameSegment])
        case unary(UnaryOperator, ExpressionNode)
        case binary(BinaryOperator, ExpressionNode, ExpressionNode)
        case conditional(ExpressionNode, ExpressionNode, ExpressionNode)
        /// `name(arguments)`; `name` may be dotted (`a.b(…)`), which the checker rejects.
        case call(name: String, nameRange: Range<Int>, arguments: [ExpressionNode])
        /// `name[key]`: a keyed lookup in a map field (`state.sessions.status[params.sessionId]`).
        case index(ExpressionNode, key: ExpressionNode)
    }

    public var kind: Kind
    /// UTF-8 offsets into the expression text.
    public var range: Range<Int>
    /// Levels of nesting below and including this node (a literal is 1).
    public var height: Int

    public init(_ kind: Kind, range: Range<Int>, height: Int = 1) {
        self.kind = kind
        self.range = range
        self.height = height
    }
}

/// One component of a dotted name, with its range.
public struct NameSegment: Sendable, Hashable {
    public var name: String
    public var range: Range<Int>

    public init(_ name: String, range: Range<Int>) {
        self.name = name
        self.range = range
    }
}

public enum UnaryOperator: String, Sendable, Hashable {
    case not = "!"
    case negate = "-"
}

public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
    case coalesce = "??"
    case or = "||"
    case and = "&&"
    case equal = "=="
    case notEqual = "!="
    case `in` = "in"
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"

    /// Binding power: higher binds tighter. `?:` (0) is looser than all of these.
    public var precedence: Int {
        switch self {
        case .coalesce: 1
        case .or: 2
        case .and: 3
        case .equal, .notEqual, .in: 4
        case .less, .lessEqual, .greater, .greaterEqual: 5
        case .add, .subtract: 6
        case .multiply, .divide, .remainder: 7
        }
    }

    /// `??` groups to the right (`a ?? b ?? c` is `a ?? (b ?? c)`); the rest to the left.
    public var isRightAssociative: Bool { self == .coalesce }
}
