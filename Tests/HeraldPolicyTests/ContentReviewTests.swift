import Foundation
import Testing
@testable import HeraldPolicy

/// `content.review` (docs/seeds.md P18): words copy may use only after a person has read it in
/// context, on the Handz bundle (§10.1 "no references to violence outside sport context").
@Suite struct ContentReviewTests {
    typealias S = CompilerTestSupport

    /// The Handz catalog and policy copied into a temporary directory, with `replace` applied to
    /// the catalog's types.
    static func handz(replacing old: String, with new: String) throws -> ValidationResult {
        var files: [String: String] = [:]
        for (from, to) in [("catalog/handz", "catalog/handz"), ("policies/handz", "policies/handz")] {
            let directory = S.repoRoot + "/" + from
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".yaml") {
                var text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                if from == "catalog/handz", name == "types.yaml" {
                    #expect(text.contains(old))
                    text = text.replacingOccurrences(of: old, with: new)
                }
                files[to + "/" + name] = text
            }
        }
        return Validator.validate(S.makeBundle(files) + "/policies/handz", lints: true)
    }

    @Test("H-§10.1 copy that names violence is flagged for review, not rejected")
    func violenceAsksForReview() throws {
        let result = try Self.handz(replacing: "Keep your reactions sharp.", with: "Fight back and keep your reactions sharp.")
        let review = result.diagnostics.sorted.filter { $0.code.id == "H0286" }
        #expect(review.count == 1)
        #expect(review.first?.message.contains("`fight`") == true)
        #expect(review.first?.severity == .warning)
        #expect(result.bundle != nil)
    }

    @Test("H-§10.1 the shipped Handz copy needs no review")
    func shippedCopyIsClean() throws {
        let result = try Self.handz(replacing: "Keep your reactions sharp.", with: "Keep your reactions sharp.")
        #expect(!result.diagnostics.sorted.contains { $0.code.id == "H0286" })
        #expect(result.bundle?.content.review.contains("fight") == true)
    }

    @Test func reviewMatchesWholeWordsOnly() throws {
        let result = try Self.handz(replacing: "Keep your reactions sharp.", with: "Killer drills keep your reactions sharp.")
        #expect(!result.diagnostics.sorted.contains { $0.code.id == "H0286" })
    }
}
