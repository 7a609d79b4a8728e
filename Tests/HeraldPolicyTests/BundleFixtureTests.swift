import Foundation
import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Runs `Validator.validate` on every H00xx, H02xx and H040x/H041x fixture directory and checks
/// its `expect` lines (`<code> <file>:<line>:<col>`, file relative to the fixture directory).
@Suite struct BundleFixtureTests {
    static let owned: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CompilerTestSupport.fixtures)) ?? []
        return names.filter { $0.hasPrefix("H00") || $0.hasPrefix("H02") || $0.hasPrefix("H040") || $0.hasPrefix("H041") }.sorted()
    }()

    /// The diagnostics of a fixture as `expect` lines.
    static func actual(_ name: String) -> [String] {
        let dir = CompilerTestSupport.fixtures + "/" + name
        let result = Validator.validate(dir)
        return result.diagnostics.sorted.map { d in
            guard let span = d.span else { return d.code.id }
            var path = span.start.path
            if path.hasPrefix(dir + "/") { path.removeFirst(dir.count + 1) }
            return "\(d.code.id) \(path):\(span.start.line):\(span.start.column)"
        }
    }

    static func expected(_ name: String) -> [String] {
        let path = CompilerTestSupport.fixtures + "/" + name + "/expect"
        let text = (FileManager.default.contents(atPath: path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.split(separator: "\n").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// The YAML (H01xx) and expression (H03xx) fixtures, which other work owns, must come out
    /// the same through the loader and compiler.
    static let upstream: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CompilerTestSupport.fixtures)) ?? []
        return names.filter { $0.hasPrefix("H01") || $0.hasPrefix("H03") }.sorted()
    }()

    @Test(arguments: upstream)
    func upstreamFixture(_ name: String) {
        let actual = Self.actual(name)
        for line in Self.expected(name) {
            #expect(actual.contains(line), "\(name): expected \(line), got \(actual)")
        }
    }

    @Test func everyOwnedCodeHasAFixture() {
        let covered = Set(Self.owned.map { String($0.prefix(5)) })
        // H0001 (the path given does not exist) and H0002 (a file that cannot be read) cannot be
        // checked-in fixture directories; BundleLoaderTests covers them.
        // H0256 and H0257 are request errors (DeclaredPreferencesTests, the bundle tests).
        let excused: Set<String> = ["H0001", "H0002", "H0256", "H0257"]
        let owned = DiagnosticCode.all.filter {
            $0.id.hasPrefix("H00") || $0.id.hasPrefix("H02") || $0.id.hasPrefix("H040") || $0.id.hasPrefix("H041")
        }
        for code in owned where !excused.contains(code.id) {
            #expect(covered.contains(code.id), "no fixture for \(code.id)")
        }
    }

    @Test(arguments: owned)
    func fixture(_ name: String) {
        let expected = Self.expected(name)
        #expect(!expected.isEmpty, "\(name) has no expect lines")
        #expect(Self.actual(name) == expected)
        // One realistic mistake: every expected diagnostic is the fixture's own code.
        #expect(expected.allSatisfy { name.hasPrefix(String($0.prefix(5))) }, "\(name): \(expected)")
    }
}
