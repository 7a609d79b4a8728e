// H05xx: validator lints on the compiled graph
extension DiagnosticCode {
    static let lintCodes: [DiagnosticCode] = []
}
