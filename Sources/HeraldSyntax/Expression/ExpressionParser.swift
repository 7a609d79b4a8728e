/// Parses expression text into an `ExpressionNode` by precedence climbing.
///
/// Grammar, loosest first:
/// ```
/// expr     := coalesce ( '?' expr ':' expr )?
/// binary   := unary ( op binary )*          -- ?? || && (== != in) (< <= > >=) (+ -) (* / %)
/// unary    := ( '!' | '-' ) unary | postfix
/// postfix  := primary | name '(' args ')'
/// primary  := literal | name | '(' expr ')' | '[' args ']'
/// name     := ident ( '.' ( ident | string ) )*
/// ```
/// Recursion is bounded: every nested construct counts one level, and past
/// `ExpressionLimits.maxDepth` levels the parser reports `H0315` and stops. The parser stops
/// at its first error (expressions are one line; later errors would mostly be echoes).
public struct ExpressionParser {
    private var tokens: [ExpressionToken]
    private var index = 0
    private var depth = 0
    private var failed = false
    private var errors: [ExpressionSyntaxError] = []

    private init(tokens: [ExpressionToken]) { self.tokens = tokens }

    /// Lexes and parses `text`. Returns the tree when there are no errors; otherwise nil and
    /// every lexical error, or the first syntax error.
    public static func parse(_ text: String) -> (node: ExpressionNode?, errors: [ExpressionSyntaxError]) {
        var characters = 0
        for _ in text.unicodeScalars {
            characters += 1
            if characters > ExpressionLimits.maxLength { break }
        }
        if characters > ExpressionLimits.maxLength {
            return (nil, [ExpressionSyntaxError(
                .exprTooLong,
                "expression is longer than \(ExpressionLimits.maxLength) characters",
                range: 0..<min(text.utf8.count, 1))])
        }
        let (tokens, lexErrors) = ExpressionLexer.tokenize(text)
        if !lexErrors.isEmpty { return (nil, lexErrors) }
        var parser = ExpressionParser(tokens: tokens)
        let node = parser.parseExpression()
        if !parser.failed, parser.current.kind != .end {
            parser.fail(.exprTrailingTokens, "unexpected \(parser.current.spelling) after a complete expression", parser.current.range)
        }
        return parser.failed ? (nil, parser.errors) : (node, [])
    }

    // MARK: - Tokens

    private var current: ExpressionToken { tokens[index] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private mutating func fail(_ code: DiagnosticCode, _ message: String, _ range: Range<Int>) {
        guard !failed else { return }
        failed = true
        errors.append(ExpressionSyntaxError(code, message, range: range))
    }

    private var errorNode: ExpressionNode { ExpressionNode(.bool(false), range: current.range) }

    /// Enters one level of nesting; false (after reporting) when too deep.
    private mutating func enter(_ range: Range<Int>) -> Bool {
        depth += 1
        if depth > ExpressionLimits.maxDepth {
            fail(.exprTooDeep, "expression is nested more than \(ExpressionLimits.maxDepth) levels deep", range)
            return false
        }
        return true
    }

    private mutating func leave() { depth -= 1 }

    /// Builds a node over `children`, reporting when it is too tall.
    private mutating func make(_ kind: ExpressionNode.Kind, _ range: Range<Int>, children: [ExpressionNode]) -> ExpressionNode {
        let height = 1 + (children.map(\.height).max() ?? 0)
        if height > ExpressionLimits.maxDepth {
            fail(.exprTooDeep, "expression is nested more than \(ExpressionLimits.maxDepth) levels deep", range)
        }
        return ExpressionNode(kind, range: range, height: height)
    }

    private mutating func expect(_ kind: ExpressionToken.Kind, _ what: String, closing open: ExpressionToken? = nil) -> Bool {
        if current.kind == kind { advance(); return true }
        let closing = open.map { " to close \($0.spelling)" } ?? ""
        fail(.exprExpectedToken, "expected \(what)\(closing), found \(current.spelling)", current.range)
        return false
    }

    // MARK: - Grammar

    private mutating func parseExpression() -> ExpressionNode {
        guard !failed else { return errorNode }
        let condition = parseBinary(minPrecedence: 1)
        guard !failed, current.kind == .question else { return condition }
        let question = current
        advance()
        guard enter(question.range) else { return errorNode }
        defer { leave() }
        let then = parseExpression()
        guard !failed, expect(.colon, "`:` of `? :`") else { return errorNode }
        let otherwise = parseExpression()
        guard !failed else { return errorNode }
        return make(.conditional(condition, then, otherwise), condition.range.lowerBound..<otherwise.range.upperBound,
                    children: [condition, then, otherwise])
    }

    private func binaryOperator(_ token: ExpressionToken) -> BinaryOperator? {
        switch token.kind {
        case .questionQuestion: .coalesce
        case .or: .or
        case .and: .and
        case .equal: .equal
        case .notEqual: .notEqual
        case .identifier("in"): .in
        case .less: .less
        case .lessEqual: .lessEqual
        case .greater: .greater
        case .greaterEqual: .greaterEqual
        case .plus: .add
        case .minus: .subtract
        case .star: .multiply
        case .slash: .divide
        case .percent: .remainder
        default: nil
        }
    }

    private mutating func parseBinary(minPrecedence: Int) -> ExpressionNode {
        guard !failed else { return errorNode }
        var left = parseUnary()
        while !failed, let op = binaryOperator(current), op.precedence >= minPrecedence {
            let opToken = current
            advance()
            guard enter(opToken.range) else { return errorNode }
            let right = parseBinary(minPrecedence: op.isRightAssociative ? op.precedence : op.precedence + 1)
            leave()
            guard !failed else { return errorNode }
            left = make(.binary(op, left, right), left.range.lowerBound..<right.range.upperBound, children: [left, right])
        }
        return left
    }

    private mutating func parseUnary() -> ExpressionNode {
        guard !failed else { return errorNode }
        let token = current
        let op: UnaryOperator? = switch token.kind {
        case .bang: .not
        case .minus: .negate
        default: nil
        }
        guard let op else { return parsePrimary() }
        advance()
        guard enter(token.range) else { return errorNode }
        defer { leave() }
        let operand = parseUnary()
        guard !failed else { return errorNode }
        return make(.unary(op, operand), token.range.lowerBound..<operand.range.upperBound, children: [operand])
    }

    private mutating func parsePrimary() -> ExpressionNode {
        guard !failed else { return errorNode }
        let token = current
        switch token.kind {
        case .int(let n):
            advance()
            return ExpressionNode(.int(n), range: token.range)
        case .string(let s):
            advance()
            return ExpressionNode(.string(s), range: token.range)
        case .duration(let s):
            advance()
            return ExpressionNode(.duration(s), range: token.range)
        case .identifier("true"):
            advance()
            return ExpressionNode(.bool(true), range: token.range)
        case .identifier("false"):
            advance()
            return ExpressionNode(.bool(false), range: token.range)
        case .identifier("in"):
            fail(.exprExpectedToken, "expected an expression, found `in`", token.range)
            return errorNode
        case .identifier:
            return parseNameOrCall()
        case .leftParen:
            advance()
            guard enter(token.range) else { return errorNode }
            defer { leave() }
            let inner = parseExpression()
            guard !failed, expect(.rightParen, "`)`", closing: token) else { return errorNode }
            return inner
        case .leftBracket:
            advance()
            guard enter(token.range) else { return errorNode }
            defer { leave() }
            let items = parseArguments(closing: .rightBracket, open: token)
            guard !failed else { return errorNode }
            return make(.list(items), token.range.lowerBound..<tokens[index - 1].range.upperBound, children: items)
        default:
            fail(.exprExpectedToken, "expected an expression, found \(token.spelling)", token.range)
            return errorNode
        }
    }

    private mutating func parseNameOrCall() -> ExpressionNode {
        var segments: [NameSegment] = []
        if case .identifier(let s) = current.kind { segments.append(NameSegment(s, range: current.range)) }
        advance()
        while !failed, current.kind == .dot {
            advance()
            switch current.kind {
            case .identifier(let s), .string(let s):
                segments.append(NameSegment(s, range: current.range))
                advance()
            default:
                fail(.exprExpectedToken, "expected a field name after `.`, found \(current.spelling)", current.range)
                return errorNode
            }
        }
        let range = segments[0].range.lowerBound..<segments[segments.count - 1].range.upperBound
        if current.kind == .leftBracket {
            // `name[key]`: one keyed lookup (a map's values are plain values, so no `[…]` follows).
            let open = current
            advance()
            guard enter(open.range) else { return errorNode }
            defer { leave() }
            let key = parseExpression()
            guard !failed, expect(.rightBracket, "`]`", closing: open) else { return errorNode }
            let base = ExpressionNode(.name(segments), range: range)
            return make(.index(base, key: key), range.lowerBound..<tokens[index - 1].range.upperBound, children: [base, key])
        }
        guard current.kind == .leftParen else {
            return ExpressionNode(.name(segments), range: range)
        }
        let open = current
        advance()
        guard enter(open.range) else { return errorNode }
        defer { leave() }
        let arguments = parseArguments(closing: .rightParen, open: open)
        guard !failed else { return errorNode }
        let name = segments.map(\.name).joined(separator: ".")
        return make(.call(name: name, nameRange: range, arguments: arguments),
                    range.lowerBound..<tokens[index - 1].range.upperBound, children: arguments)
    }

    /// Comma-separated expressions up to `closing` (a trailing comma is allowed).
    private mutating func parseArguments(closing: ExpressionToken.Kind, open: ExpressionToken) -> [ExpressionNode] {
        var items: [ExpressionNode] = []
        while !failed, current.kind != closing {
            items.append(parseExpression())
            guard !failed else { return [] }
            if current.kind == .comma {
                advance()
            } else if current.kind != closing {
                let what = closing == .rightParen ? "`,` or `)`" : "`,` or `]`"
                _ = expect(closing, what, closing: open)
                return []
            }
        }
        if !failed { advance() }
        return items
    }
}
