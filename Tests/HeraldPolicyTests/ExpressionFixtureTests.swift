import Foundation
import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Checks the H03xx fixtures' `expect` files against the expression compiler alone: the
/// expression is the quoted text on the expected line, compiled as a bool in the fixtures'
/// environment. (The golden harness checks the same files end to end through the loader.)
@Suite struct ExpressionFixtureTests {
    static let directory: String = {
        let file = #filePath
        let tests = file.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        return tests + "/Fixtures/diagnostics"
    }()

    static let fixtures = ["H0301-expr-unexpected-character", "H0302-expr-unterminated-string", "H0303-expr-invalid-duration",
                           "H0304-expr-expected-token", "H0305-expr-trailing-tokens", "H0306-expr-unknown-name",
                           "H0307-expr-unknown-function", "H0308-expr-argument-count", "H0309-expr-type-mismatch",
                           "H0310-expr-result-type", "H0311-expr-optional-without-has", "H0312-expr-not-optional",
                           "H0313-expr-unknown-enum-case", "H0314-expr-too-long", "H0315-expr-too-deep",
                           "H0316-expr-invalid-time", "H0317-expr-unknown-sent-target", "H0318-expr-invalid-sent-window"]

    static let environment = ExpressionEnvironment.standard(
        state: ["streak": .value(.int), "lastOpenedAt": .value(.optional(.instant))],
        user: ["tier": .value(.enumeration(EnumType(cases: ["free", "pro"])))],
        params: [:], categories: ["reminders"], channels: ["push"], types: ["daily-reminder"])

    func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: fixtures)
    func fixture(name: String) throws {
        let dir = Self.directory + "/" + name
        let expect = try #require(read(dir + "/expect")).split(separator: "\n")
        #expect(expect.count == 1)
        let parts = expect[0].split(separator: " ")
        let place = parts[1].split(separator: ":")
        // `path:line:column`: the column is checked with the whole expected diagnostic below.
        let line = Int(place[1])!
        #expect(place.count == 3 && Int(place[2]) != nil)
        let yaml = try #require(read(dir + "/" + String(place[0])))
        let text = yaml.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        let characters = Array(text)
        let open = try #require(characters.firstIndex(of: "\""))
        let close = try #require(characters.lastIndex(of: "\""))
        let expression = String(characters[(open + 1)..<close])
        let start = SourceLocation(path: "bundle.yaml", line: line, column: open + 2)
        let scalar = YAMLScalar(value: expression, style: .doubleQuoted, positions: ScalarPositions(line: expression, start: start))
        var diagnostics = Diagnostics()
        _ = ExpressionCompiler.compile(scalar, span: scalar.span(ofValueRange: 0..<expression.utf8.count),
                                       expecting: .bool, in: Self.environment, diagnostics: &diagnostics)
        #expect(diagnostics.items.map { "\($0.code.id) bundle.yaml:\($0.span!.start.line):\($0.span!.start.column)" } == [String(expect[0])])
        #expect(name.hasPrefix(String(parts[0])))
    }
}
