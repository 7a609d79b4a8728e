import Testing
import Foundation
@testable import HeraldSyntax

/// The reader's own check of the H01xx broken fixtures (the CLI's golden harness checks every
/// fixture through the whole validator): each `expect` line `<CODE> <file>:<line>:<col>` must
/// be produced by reading the fixture's YAML files.
@Suite("YAML fixtures")
struct YAMLFixtureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/diagnostics")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasPrefix("H01") }.sorted()
    }

    @Test func thereIsAFixtureForEveryReaderCode() {
        let covered = Set(Self.fixtures.map { String($0.prefix(5)) })
        // H0110 (4 MiB) and H0112 (100,000 nodes) need huge files: unit-tested with small limits.
        let excused: Set<String> = ["H0110", "H0112"]
        for code in DiagnosticCode.all where code.id.hasPrefix("H01") && !excused.contains(code.id) {
            #expect(covered.contains(code.id), "no fixture for \(code.id)")
        }
    }

    @Test(arguments: fixtures)
    func fixtureGivesExpectedDiagnostics(_ name: String) throws {
        let dir = Self.root.appendingPathComponent(name)
        var produced: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where file.hasSuffix(".yaml") {
            let bytes = Array(try Data(contentsOf: dir.appendingPathComponent(file)))
            let result = YAMLReader.read(SourceFile(path: file, bytes: bytes))
            for d in result.diagnostics {
                if let s = d.span { produced.insert("\(d.code.id) \(s.start.path):\(s.start.line):\(s.start.column)") }
            }
        }
        let expect = try String(contentsOf: dir.appendingPathComponent("expect"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        #expect(!expect.isEmpty)
        for line in expect {
            #expect(produced.contains(line), "\(name): expected \(line), got \(produced.sorted())")
        }
        #expect(produced.contains { $0.hasPrefix(String(name.prefix(5))) }, "\(name) does not produce its own code")
    }
}
