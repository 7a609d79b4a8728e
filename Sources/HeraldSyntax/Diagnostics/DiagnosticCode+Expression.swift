// H03xx: expressions (lexer, parser, type checker)
extension DiagnosticCode {
    static let expressionCodes: [DiagnosticCode] = []
}
