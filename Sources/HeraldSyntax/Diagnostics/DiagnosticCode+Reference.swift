// H04xx: references between entries, templates and links
extension DiagnosticCode {
    static let referenceCodes: [DiagnosticCode] = []
}
