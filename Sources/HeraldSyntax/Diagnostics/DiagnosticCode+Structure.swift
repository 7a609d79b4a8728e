// H02xx: sections, keys and value shapes (the compiler)
extension DiagnosticCode {
    static let structureCodes: [DiagnosticCode] = []
}
