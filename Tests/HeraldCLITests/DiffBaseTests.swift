import Foundation
import HeraldTestSupport
import Testing

/// `herald diff --base`: a policy directory against itself at a git revision, as docs/ci.md's
/// pull-request workflow runs it, on a repository whose last commit raises Handz's default
/// `maxPerDay` from 2 to 3.
@Suite struct DiffBaseTests {
    /// A git repository holding `catalog/handz` and `policies/handz` in two commits: as shipped,
    /// then with `maxPerDay: 3`. Commit dates and authors are fixed.
    static func repositoryWithMaxPerDayChange() throws -> String {
        let directory = try TestSupport.temporaryDirectory().path
        for part in ["catalog/handz", "policies/handz"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + (part as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestSupport.path(part), toPath: directory + "/" + part)
        }
        try git(["init", "-q", "-b", "main"], in: directory)
        try git(["add", "."], in: directory)
        try git(["commit", "-q", "-m", "Handz as shipped"], in: directory)
        let policy = directory + "/policies/handz/policy.yaml"
        let text = try String(contentsOfFile: policy, encoding: .utf8)
        let raised = text.replacingOccurrences(of: "\n  maxPerDay: 2 ", with: "\n  maxPerDay: 3 ")
        #expect(raised != text, "policies/handz/policy.yaml no longer says `  maxPerDay: 2 `")
        try raised.write(toFile: policy, atomically: true, encoding: .utf8)
        try git(["commit", "-q", "-am", "Handz: three notifications a day by default"], in: directory)
        return directory
    }

    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in ["GIT_AUTHOR_NAME": "Herald Tests", "GIT_AUTHOR_EMAIL": "tests@herald.invalid",
                             "GIT_COMMITTER_NAME": "Herald Tests", "GIT_COMMITTER_EMAIL": "tests@herald.invalid",
                             "GIT_AUTHOR_DATE": "2026-03-02T12:00:00Z", "GIT_COMMITTER_DATE": "2026-03-02T12:00:00Z"] {
            environment[key] = value
        }
        let result = try ChildProcess.run("/usr/bin/env", ["git", "-C", directory] + arguments, environment: environment)
        guard result.status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return result.stdout
    }

    /// The commit id in the report's heading, which depends on the files' bytes.
    static func maskingCommit(_ text: String) -> String {
        text.replacingOccurrences(of: #"\(([0-9a-f]{12})\)"#, with: "(…)", options: .regularExpression)
    }

    static let diffArguments = ["diff", "--base", "HEAD~1", "policies/handz",
                                "--scenario", "policies/handz/scenarios/typical-week.yaml", "--users", "200", "--format", "markdown"]

    /// docs/ci.md's example is the real output of the workflow's diff step on this change.
    @Test func theMaxPerDayChangeAsAPullRequestComment() throws {
        let repository = try Self.repositoryWithMaxPerDayChange()
        defer { try? FileManager.default.removeItem(atPath: repository) }
        let diff = try TestSupport.runHerald(Self.diffArguments, in: repository)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("| changed | `defaults.maxPerDay` | `policies/handz/policy.yaml:16` |"))
        #expect(diff.stdout.contains("soft-daily"), "raising the default cap moves the soft daily cap")
        #expect(diff.stdout.contains("**Policy tests**: before "))

        let doc = try String(contentsOfFile: TestSupport.path("docs/ci.md"), encoding: .utf8)
        let begin = try #require(doc.range(of: "<!-- diff-markdown:begin -->\n"))
        let end = try #require(doc.range(of: "<!-- diff-markdown:end -->"))
        let shown = String(doc[begin.upperBound..<end.lowerBound])
        #expect(Self.maskingCommit(shown) == Self.maskingCommit(diff.stdout),
                "docs/ci.md's example is stale; paste the output of `herald \(Self.diffArguments.joined(separator: " "))`")

        // The workflow's other steps, as docs/ci.md writes them, on the same tree.
        #expect(doc.contains("herald validate --format github"))
        #expect(doc.contains("herald test --format junit"))
        #expect(doc.contains("herald diff --base \"$BASE\""))
        let validate = try TestSupport.runHerald(["validate", "--format", "github", "policies/handz"], in: repository)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let test = try TestSupport.runHerald(["test", "--format", "junit", "policies/handz"], in: repository)
        #expect(test.stdout.contains("<testsuites"))
    }

    /// Two sides that are the same commit: nothing changed, and the report says so.
    @Test func theSameRevisionChangesNothing() throws {
        let repository = try Self.repositoryWithMaxPerDayChange()
        defer { try? FileManager.default.removeItem(atPath: repository) }
        var arguments = Self.diffArguments
        arguments[2] = "HEAD"
        let diff = try TestSupport.runHerald(arguments, in: repository)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("**Changed entries**: none"))
        #expect(diff.stdout.contains("**Users whose week changed**: 0 of 200"))
    }

    @Test(arguments: [
        (["diff", "--base", "no-such-revision", "policies/handz", "--scenario", "policies/handz/scenarios/typical-week.yaml"], "is not a commit"),
        (["diff", "--base", "HEAD~5", "policies/handz", "--scenario", "policies/handz/scenarios/typical-week.yaml"], "is not a commit"),
        (["diff", "--base", "HEAD", "policies/handz", "policies/handz", "--scenario", "policies/handz/scenarios/typical-week.yaml"], "give one policy directory"),
        (["diff", "policies/handz", "--scenario", "policies/handz/scenarios/typical-week.yaml"], "give two policy directories"),
        (["simulate", "policies/handz", "--scenario", "policies/handz/scenarios/typical-week.yaml", "--format", "markdown"], "is for `herald diff`"),
    ])
    func badUsageIsExit64WithAReason(arguments: [String], message: String) throws {
        let repository = try Self.repositoryWithMaxPerDayChange()
        defer { try? FileManager.default.removeItem(atPath: repository) }
        let run = try TestSupport.runHerald(arguments, in: repository)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aDirectoryThatDidNotExistAtTheRevision() throws {
        let repository = try Self.repositoryWithMaxPerDayChange()
        defer { try? FileManager.default.removeItem(atPath: repository) }
        try FileManager.default.copyItem(atPath: repository + "/policies/handz", toPath: repository + "/policies/handz-new")
        try FileManager.default.removeItem(atPath: repository + "/policies/handz-new/tests")
        try Self.git(["add", "."], in: repository)
        try Self.git(["commit", "-q", "-m", "a new policy"], in: repository)
        let run = try TestSupport.runHerald(["diff", "--base", "HEAD~1", "policies/handz-new",
                                             "--scenario", "policies/handz/scenarios/typical-week.yaml"], in: repository)
        #expect(run.status == 64)
        #expect(run.stderr.contains("`policies/handz-new` did not exist at `HEAD~1`"), "\(run.stderr)")
    }

    /// Outside a git work tree `--base` says so.
    @Test func outsideGit() throws {
        let directory = try TestSupport.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/policies", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/catalog", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestSupport.path("policies/handz"), toPath: directory + "/policies/handz")
        try FileManager.default.copyItem(atPath: TestSupport.path("catalog/handz"), toPath: directory + "/catalog/handz")
        let run = try TestSupport.runHerald(["diff", "--base", "HEAD", "policies/handz",
                                             "--scenario", "policies/handz/scenarios/typical-week.yaml"], in: directory)
        #expect(run.status == 64)
        #expect(run.stderr.contains("is not in a git work tree"), "\(run.stderr)")
    }
}
