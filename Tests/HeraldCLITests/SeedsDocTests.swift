import Foundation
import HeraldPolicy
import HeraldSyntax
import Testing

/// docs/seeds.md stays true to the bundles where that is mechanical: the proposals every
/// `GAP(Pn)` cites, the seed gaps and contract points bundles point at, each seed's files,
/// tests and counts, the validation table, and the `herald` commands it names.
@Suite struct SeedsDocTests {
    static let docPath = "docs/seeds.md"

    static func read(_ relative: String) -> String {
        (try? String(contentsOfFile: TestSupport.path(relative), encoding: .utf8)) ?? ""
    }

    static func doc() throws -> String {
        let text = read(docPath)
        try #require(!text.isEmpty, "\(docPath) is missing or empty")
        return text
    }

    /// The bundles: every directory of `policies/` (the app name is the directory's name).
    static let apps: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.path("policies"))) ?? []
        return names.filter { FileManager.default.fileExists(atPath: TestSupport.path("policies/\($0)/policy.yaml")) }.sorted()
    }()

    /// `.yaml` file names of a repository directory, sorted.
    static func yamlFiles(in relative: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestSupport.path(relative))) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    }

    /// The text of every YAML file under `catalog/` and `policies/`, by repository path.
    static func bundleTexts() -> [(path: String, text: String)] {
        var result: [(String, String)] = []
        for root in ["catalog", "policies"] {
            guard let walker = FileManager.default.enumerator(atPath: TestSupport.path(root)) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".yaml") {
                let path = "\(root)/\(relative)"
                result.append((path, read(path)))
            }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    static func matches(_ pattern: String, in text: String, options: NSRegularExpression.Options = []) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options) else {
            Issue.record("bad pattern \(pattern)")
            return []
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    /// The ids of the proposals table (`| P7 | …`).
    static func proposalIDs(_ doc: String) -> [String] {
        matches(#"^\| (P\d+) \|"#, in: doc, options: .anchorsMatchLines).map { $0[1] }
    }

    /// Each seed's section: from `## n. … — `catalog/<app>/`` to the next `## ` heading.
    static func sections(_ doc: String) -> [String: String] {
        var result: [String: String] = [:]
        let lines = doc.components(separatedBy: "\n")
        var current: String?
        var body: [String] = []
        func close() {
            if let current { result[current] = body.joined(separator: "\n") }
        }
        for line in lines {
            if line.hasPrefix("## ") {
                close()
                current = matches(#"^## \d+\. .*`catalog/([a-z0-9_-]+)/`"#, in: line).first?[1]
                body = []
            } else {
                body.append(line)
            }
        }
        close()
        return result
    }

    /// The paragraph that starts with `label` (up to the next blank line), or nil.
    static func paragraph(_ label: String, in section: String) -> String? {
        section.components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { $0.hasPrefix(label) }
    }

    /// Backticked bare file names (`app.yaml`) of a paragraph.
    static func fileNames(in paragraph: String) -> Set<String> {
        Set(matches(#"`([A-Za-z0-9_.-]+\.ya?ml)`"#, in: paragraph).map { $0[1] })
    }

    // MARK: - Gaps and proposals

    @Test func everyGapProposalInTheBundlesIsInTheProposalsTable() throws {
        let doc = try Self.doc()
        let table = Self.proposalIDs(doc)
        #expect(Set(table).count == table.count, "the proposals table repeats an id: \(table)")
        var cited: [String: String] = [:]
        for (path, text) in Self.bundleTexts() {
            for match in Self.matches(#"GAP\((P\d+)\)"#, in: text) { cited[match[1], default: path] = path }
        }
        // Every gap may be closed (issue 18 closed the last, Rin's R4): the scan itself must still
        // find a GAP comment where there is one, and read the bundles.
        #expect(!Self.bundleTexts().isEmpty, "no bundle text read under catalog/ and policies/")
        #expect(Self.matches(#"GAP\((P\d+)\)"#, in: "  # GAP(P11): batch copy naming a member").map { $0[1] } == ["P11"])
        for (id, path) in cited.sorted(by: { $0.key < $1.key }) where !table.contains(id) {
            Issue.record("\(path) cites GAP(\(id)), which the proposals table of \(Self.docPath) does not list")
        }
    }

    /// Issue 18: a product person reading a spec finds every rule in the bundle. Each gap a
    /// seed's section lists is closed, or says why no spec rule is behind it (app UI, a seed that
    /// gives no copy), and no rule row is still marked a gap.
    @Test(arguments: apps)
    func everyGapIsClosedOrNotASpecRule(_ app: String) throws {
        let section = try #require(Self.sections(try Self.doc())[app], "\(Self.docPath) has no section for catalog/\(app)/")
        let lists = Self.matches(#"(?:### Gaps\n|Gaps found while writing the bundle[^\n]*\n)(.*?)(?=\n### |\z)"#,
                                 in: section, options: .dotMatchesLineSeparators).map { $0[1] }
        #expect(!lists.isEmpty, "\(app): no list of gaps found in \(Self.docPath)")
        let settled = ["closed", "Closed", "not a spec rule", "app UI"]
        for list in lists {
            for bullet in list.components(separatedBy: "\n- **").dropFirst() where !settled.contains(where: bullet.contains) {
                Issue.record("\(app): the gap `\(bullet.prefix(60))…` is neither closed nor marked as no spec rule")
            }
        }
        #expect(!section.contains("**gap"), "\(app): a rule row of \(Self.docPath) is still marked as a gap")
    }

    @Test func everyProposalTheDocCitesIsInItsTable() throws {
        let doc = try Self.doc()
        let table = Set(Self.proposalIDs(doc))
        let cited = Set(Self.matches(#"\b(P\d+)\b"#, in: doc).map { $0[1] })
        for id in cited.subtracting(table).sorted() {
            Issue.record("\(Self.docPath) cites \(id), which its proposals table does not list")
        }
    }

    @Test func everySeedGapAndContractPointABundleCitesIsInTheDoc() throws {
        let doc = try Self.doc()
        var gaps: [String: String] = [:]
        var points: [String: String] = [:]
        for (path, text) in Self.bundleTexts() {
            // Comments run over several lines: join them, dropping each line's indentation and `#`.
            let flat = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.drop { $0 == " " || $0 == "#" } }
                .joined(separator: " ")
            for match in Self.matches(#"(?:\b[Gg]ap|docs/seeds\.md,?) +([GURKC]\d+)\b"#, in: flat) { gaps[match[1]] = path }
            for match in Self.matches(#"docs/seeds\.md,? +contract +point +(\d+)"#, in: flat) { points[match[1]] = path }
        }
        #expect(!gaps.isEmpty, "no seed gap (G1, U2, …) cited under catalog/ and policies/")
        for (id, path) in gaps.sorted(by: { $0.key < $1.key }) where !doc.contains("**\(id) — ") {
            Issue.record("\(path) cites \(Self.docPath) gap \(id), which has no `**\(id) — …` entry there")
        }
        for (number, path) in points.sorted(by: { $0.key < $1.key })
        where Self.matches(#"^ {0,3}\#(number)\. "#, in: doc, options: .anchorsMatchLines).isEmpty {
            Issue.record("\(path) cites \(Self.docPath) contract point \(number), which is not in its list")
        }
    }

    // MARK: - Files, tests, counts

    @Test(arguments: apps)
    func filesAndTestsListedAreTheBundles(_ app: String) throws {
        let doc = try Self.doc()
        let section = try #require(Self.sections(doc)[app], "\(Self.docPath) has no `## n. … — `catalog/\(app)/`` section")

        let files = try #require(Self.paragraph("Files:", in: section), "the \(app) section has no `Files:` paragraph")
        let catalogFiles = Set(Self.yamlFiles(in: "catalog/\(app)"))
        #expect(Self.fileNames(in: files) == catalogFiles,
                "\(app) `Files:` lists \(Self.fileNames(in: files).sorted()), catalog/\(app)/ holds \(catalogFiles.sorted())")

        let tests = try #require(Self.paragraph("Tests:", in: section), "the \(app) section has no `Tests:` paragraph")
        let testFiles = Set(Self.yamlFiles(in: "policies/\(app)/tests"))
        #expect(Self.fileNames(in: tests) == testFiles,
                "\(app) `Tests:` lists \(Self.fileNames(in: tests).sorted()), policies/\(app)/tests/ holds \(testFiles.sorted())")

        // Every `tests/<file>.yaml` the section mentions is one of its bundle's test files.
        for match in Self.matches(#"(?<![A-Za-z0-9_/.-])tests/([A-Za-z0-9_.-]+\.yaml)"#, in: section)
        where !testFiles.contains(match[1]) {
            Issue.record("the \(app) section mentions tests/\(match[1]), which is not in policies/\(app)/tests/")
        }
    }

    @Test func everyBundlePathTheDocNamesExists() throws {
        let doc = try Self.doc()
        let paths = Set(Self.matches(#"\b((?:catalog|policies)/[a-z0-9_-]+/[A-Za-z0-9_./-]*\.yaml)\b"#, in: doc).map { $0[1] })
        #expect(!paths.isEmpty)
        for path in paths.sorted() where !FileManager.default.fileExists(atPath: TestSupport.path(path)) {
            Issue.record("\(Self.docPath) names \(path), which does not exist")
        }
    }

    /// The counts a section's `Counts:` list may state, by label (singular and plural), and how
    /// to count them in the compiled bundle.
    static let countLabels: [(names: [String], required: Bool, count: @Sendable (PolicyBundle) -> Int)] = [
        (["type", "types"], true, { b in b.types.count }),
        (["category", "categories"], true, { b in b.categories.count }),
        (["channel", "channels"], true, { b in b.channels.count }),
        (["route", "routes"], true, { b in b.routes.count }),
        (["catalog reason", "catalog reasons"], true, { b in b.reasons.filter { !$0.isBuiltIn }.count }),
        (["type cap", "type caps"], true, { b in b.types.reduce(0) { $0 + $1.caps.count } }),
        (["policy cap", "policy caps"], true, { b in b.caps.filter { $0.cooldown == nil }.count }),
        (["cooldown", "cooldowns"], true, { b in b.caps.filter { $0.cooldown != nil }.count }),
        (["type suppression rule", "type suppression rules"], true, { b in b.types.reduce(0) { $0 + $1.suppress.count } }),
        (["policy suppression rule", "policy suppression rules"], true, { b in b.suppress.count }),
        (["prompt wait rule", "prompt wait rules"], true, { b in b.prompt.wait.count }),
        (["batch group", "batch groups"], true, { b in b.batching.count }),
        (["digest", "digests"], true, { b in b.digests.count }),
        (["lock-screen variant", "lock-screen variants"], true, { b in b.types.filter { $0.copy?.lockscreen != nil }.count }),
        (["dedupe key", "dedupe keys"], false, { b in b.types.filter { $0.dedupe?.key != nil }.count }),
        (["eligibility rule", "eligibility rules"], false, { b in b.types.filter { $0.eligible != nil }.count }),
        (["critical type", "critical types"], false, { b in b.types.filter(\.critical).count }),
        (["back-off", "back-offs"], false, { b in b.backoff.count }),
    ]

    @Test(arguments: apps)
    func countsMatchTheCompiledBundle(_ app: String) throws {
        let doc = try Self.doc()
        let section = try #require(Self.sections(doc)[app])
        let paragraph = try #require(Self.paragraph("Counts:", in: section), "the \(app) section has no `Counts:` paragraph")
        // The list runs from `Counts:` to the first period.
        let list = paragraph.dropFirst("Counts:".count).prefix { $0 != "." }
        var stated: [String: Int] = [:]
        for item in list.split(separator: ",") {
            let words = item.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let number = words.first.flatMap({ Int($0) }), words.count > 1 else {
                Issue.record("\(app) `Counts:` item `\(item)` is not `<number> <label>`")
                continue
            }
            stated[words.dropFirst().joined(separator: " ")] = number
        }
        let bundle = try #require(Validator.validate(TestSupport.path("policies/\(app)")).bundle, "policies/\(app) does not compile")
        var known: Set<String> = []
        for label in Self.countLabels {
            known.formUnion(label.names)
            let found = label.names.compactMap { stated[$0] }
            if found.isEmpty {
                if label.required { Issue.record("\(app) `Counts:` does not state the number of \(label.names[1])") }
                continue
            }
            #expect(found == [label.count(bundle)], "\(app) `Counts:` says \(found[0]) \(label.names[1]); the bundle has \(label.count(bundle))")
        }
        for label in stated.keys.sorted() where !known.contains(label) {
            Issue.record("\(app) `Counts:` states `\(label)`, which this test cannot check; add it to countLabels or drop it")
        }
    }

    // MARK: - Validation table, commands

    @Test(arguments: apps)
    func validationTableMatchesValidate(_ app: String) throws {
        let doc = try Self.doc()
        let row = try #require(Self.matches(#"^\| \#(app) \| (.*) \|$"#, in: doc, options: .anchorsMatchLines).first?[1],
                               "\(Self.docPath)'s validation table has no row for \(app)")
        let result = Validator.validate(TestSupport.path("policies/\(app)"))
        #expect(row.hasPrefix("ok") == !result.diagnostics.hasErrors, "\(app): the table says `\(row)`, validate found \(result.diagnostics.errorCount) error(s)")
        let stated = Self.matches(#"(\d+) warnings?"#, in: row).first.flatMap { Int($0[1]) }
        #expect(stated == result.diagnostics.warningCount, "\(app): the table says `\(row)`, validate found \(result.diagnostics.warningCount) warning(s)")
        let warningCodes = Set(result.diagnostics.items.filter { $0.severity == .warning }.map(\.code.id))
        let statedCodes = Set(Self.matches(#"\b(H\d{4})\b"#, in: row).map { $0[1] })
        #expect(statedCodes == warningCodes, "\(app): the table names \(statedCodes.sorted()), validate warns \(warningCodes.sorted())")
    }

    @Test func everyHeraldCommandNamedExists() throws {
        let doc = try Self.doc()
        let help = try TestSupport.runHerald(["--help"])
        let afterHeading = help.stdout.components(separatedBy: "SUBCOMMANDS:").dropFirst().first ?? ""
        let commands = Set(Self.matches(#"^  ([a-z][a-z-]*)\b"#, in: afterHeading, options: .anchorsMatchLines).map { $0[1] })
        try #require(commands.contains("validate") && commands.contains("test"), "cannot read the subcommands of `herald --help`:\n\(help.stdout)")
        let named = Set(Self.matches(#"(?<![A-Za-z])herald ([a-z][a-z-]*)"#, in: doc).map { $0[1] })
        #expect(named.contains("test"))
        for command in named.subtracting(commands).sorted() {
            Issue.record("\(Self.docPath) names `herald \(command)`, which `herald --help` does not list")
        }
    }
}
