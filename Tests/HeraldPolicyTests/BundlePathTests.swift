import Testing
import Foundation
import HeraldSyntax
@testable import HeraldPolicy

/// The two bundle codes no fixture directory can hold: a path that does not exist (H0001) and
/// a `.yaml` entry that cannot be read as a file (H0002).
@Suite("Bundle paths")
struct BundlePathTests {
    @Test func missingPathIsH0001() {
        let result = Validator.validate("/nonexistent/herald/bundle")
        #expect(result.diagnostics.first?.code == .pathNotFound)
        #expect(result.bundle == nil)
    }

    @Test func fifoNamedLikeYAMLIsH0002NotAHang() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-h0002-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A FIFO named like a YAML file: reading it would block forever.
        let fifo = dir.appendingPathComponent("types.yaml").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let codes = Validator.validate(dir.path).diagnostics.map(\.code.id)
        #expect(codes.contains("H0002"), "\(codes)")
    }
}
