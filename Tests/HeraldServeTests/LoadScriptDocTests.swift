#if Server
import Foundation
import Testing

/// docs/serve.md § Load and faults lists `Benchmarks/serve/load.sh`'s modes: every mode the
/// script runs is in the table, and the table names no mode the script lacks.
@Suite struct LoadScriptDocTests {
    @Test func theDocumentedModesAreTheScriptsModes() throws {
        let script = try String(contentsOfFile: ServeFixtures.root + "/Benchmarks/serve/load.sh", encoding: .utf8)
        let doc = try String(contentsOfFile: ServeFixtures.root + "/docs/serve.md", encoding: .utf8)
        // The script's `case $mode in` labels: lines such as `peak)`.
        let body = try #require(script.range(of: "case $mode in").map { script[$0.upperBound...] })
        let scriptModes = Set(body.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasSuffix(")"), !trimmed.hasPrefix("#"), !trimmed.contains(" "), trimmed != "*)" else { return nil }
            return String(trimmed.dropLast())
        })
        let section = try #require(doc.range(of: "## Load and faults").map { doc[$0.upperBound...] })
        let docModes = Set(section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            return cell.split(separator: " ").first.map(String.init)
        })
        #expect(scriptModes.count >= 9, "the script's modes were not found: \(scriptModes)")
        #expect(scriptModes == docModes)
    }
}
#endif
