// H01xx: the strict YAML reader
extension DiagnosticCode {
    static let yamlCodes: [DiagnosticCode] = []
}
