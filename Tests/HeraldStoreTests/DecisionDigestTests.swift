import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldTestSupport
import HeraldTesting
import Testing

/// Every decision (and prompt decision) the five seed bundles' scenario tests make, as JSON text,
/// stays byte for byte what `Tests/Fixtures/decision-digests/<bundle>.txt` records: one line per
/// test with its decision count and a 64-bit FNV-1a digest of the decisions' text. A change to
/// the engine's plumbing must leave these unchanged; a change of behaviour updates them
/// (`HERALD_UPDATE_GOLDEN=1 swift test --filter DecisionDigestTests`), and the diff names the
/// tests whose decisions changed.
@Suite struct DecisionDigestTests {
    @Test(arguments: SeedBundleRuns.bundles)
    func decisionsAreUnchanged(_ name: String) async throws {
        try await Task(executorPreference: SeedBundleRuns.executor) { try Self.check(name) }.value
    }

    static func digests(_ name: String) throws -> String {
        let results = try SeedBundleRuns.run(name).results
        // Sources cite files by the path the bundle was read from: the checkout's own place is
        // left out, so the digests are the same in every clone.
        let root = BuiltProducts.repositoryRoot.path + "/"
        func text(_ json: JSON) -> String { json.serialized().replacingOccurrences(of: root, with: "") + "\n" }
        var lines: [String] = []
        for result in results {
            var hash = FNV1a()
            for decision in result.decisions { hash.add(text(decision.json())) }
            for prompt in result.prompts { hash.add(text(prompt.json())) }
            lines.append("\(result.name)\t\(result.decisions.count)+\(result.prompts.count)\t\(hash.hex)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func check(_ name: String) throws {
        let actual = try digests(name)
        let path = BuiltProducts.path("Tests/Fixtures/decision-digests/\(name).txt")
        if ProcessInfo.processInfo.environment["HERALD_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        let expectedLines = expected.split(separator: "\n"), actualLines = actual.split(separator: "\n")
        #expect(expectedLines.count == actualLines.count, "\(name): \(actualLines.count) tests, the digests list \(expectedLines.count)")
        for (want, got) in zip(expectedLines, actualLines) where want != got {
            Issue.record("\(name): decisions changed: expected `\(want)`, got `\(got)`")
        }
        // The digests cover decisions (a run that made none would prove nothing).
        #expect(actualLines.count > 20)
    }
}

/// 64-bit FNV-1a over UTF-8 bytes: a stable digest (Swift's `Hasher` is seeded per process).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
