import ArgumentParser
import Foundation
import Testing
@testable import herald

/// README.md stays true to the tool: its subcommand table names every subcommand `herald` has,
/// and its documentation list links every page under docs/.
@Suite struct ReadmeDocTests {
    static func readme() throws -> String {
        let text = (try? String(contentsOfFile: TestSupport.path("README.md"), encoding: .utf8)) ?? ""
        try #require(!text.isEmpty, "README.md is missing or empty")
        return text
    }

    @Test func theSubcommandTableNamesEverySubcommand() throws {
        let rows = try Self.readme().split(separator: "\n").filter { $0.hasPrefix("| `herald ") }
        for command in Herald.subcommands {
            let name = command._commandName
            #expect(rows.contains { $0.hasPrefix("| `herald \(name) ") || $0.hasPrefix("| `herald \(name)`") || $0.hasPrefix("| `herald \(name)\\|") },
                    "README.md's subcommand table has no row for `herald \(name)`")
        }
    }

    @Test func everyDocsPageIsLinked() throws {
        let readme = try Self.readme()
        let pages = try FileManager.default.contentsOfDirectory(atPath: TestSupport.path("docs")).filter { $0.hasSuffix(".md") }
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(readme.contains("](docs/\(page))"), "README.md links no docs/\(page)")
        }
    }
}
