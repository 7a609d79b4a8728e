import Testing
import HeraldSyntax
@testable import HeraldPolicy

@Suite struct BundleHandzTests {
    @Test func handzValidatesWithoutErrors() throws {
        let result = Validator.validate(CompilerTestSupport.repoRoot + "/policies/handz")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description).joined(separator: "\n"))")
        #expect(result.bundle != nil)
        guard let bundle = result.bundle else { return }
        #expect(bundle.name == "handz-default")
        #expect(bundle.app?.scheme == "handz")
        #expect(bundle.types.count == 10)
        #expect(bundle.digest.count == 16)
    }
}
