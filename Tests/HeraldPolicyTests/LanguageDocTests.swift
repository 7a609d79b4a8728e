import Testing
import Foundation
@testable import HeraldPolicy
import HeraldSyntax

/// docs/language.md must describe what the compiler accepts: every section, every key of
/// every place, every timing anchor, cap window, overflow and schema type, and every
/// built-in reason appear in it (as `code`).
@Suite("docs/language.md")
struct LanguageDocTests {
    static let doc: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/language.md"), encoding: .utf8)) ?? ""
    }()

    func mentioned(_ word: String) -> Bool {
        Self.doc.contains("`\(word)`") || Self.doc.contains("`\(word):") || Self.doc.contains("| `\(word)`")
            || Self.doc.range(of: "\n\(word):") != nil || Self.doc.range(of: " \(word): ") != nil
    }

    @Test func everySectionAndKeyIsDocumented() {
        #expect(!Self.doc.isEmpty)
        var missing: [String] = []
        for section in LanguageKeys.catalogSections + LanguageKeys.policySections where !mentioned(section) {
            missing.append("section \(section)")
        }
        for (name, place) in LanguageKeys.places.sorted(by: { $0.key < $1.key }) {
            for key in place.keys where !mentioned(key) { missing.append("\(name).\(key)") }
        }
        #expect(missing.isEmpty, "not in docs/language.md: \(missing)")
    }

    @Test func everyEnumeratedValueIsDocumented() {
        let words = LanguageKeys.timingAnchors + LanguageKeys.capWindows + LanguageKeys.overflows + LanguageKeys.schemaTypes
        let missing = words.filter { !Self.doc.contains($0) }
        #expect(missing.isEmpty, "not in docs/language.md: \(missing)")
    }

    @Test func everyBuiltInReasonIsDocumented() {
        let missing = (Reason.builtIn.map(\.code) + Reason.scheduleReasons).filter { !Self.doc.contains("`\($0)`") }
        #expect(missing.isEmpty, "reasons not in docs/language.md: \(missing)")
    }
}
