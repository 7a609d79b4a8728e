import Foundation
import HeraldSyntax
import Testing

/// docs/diagnostics.md (assembled by scripts/assemble-diagnostics-doc.sh) documents every code.
@Suite struct DiagnosticsDocTests {
    @Test func everyCodeIsDocumented() throws {
        let path = TestSupport.path("docs/diagnostics.md")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("docs/diagnostics.md is missing; run scripts/assemble-diagnostics-doc.sh")
            return
        }
        for code in DiagnosticCode.all where !text.contains(code.id) {
            Issue.record("docs/diagnostics.md does not mention \(code.id) \(code.name); run scripts/assemble-diagnostics-doc.sh")
        }
    }
}
