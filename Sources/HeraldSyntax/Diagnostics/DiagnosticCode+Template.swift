// H042x: copy and route templates
extension DiagnosticCode {
    static let templateCodes: [DiagnosticCode] = []
}
