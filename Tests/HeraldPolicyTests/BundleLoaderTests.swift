import Foundation
import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Loading bundle directories: file selection, merging across files, catalogs, paths, digests.
@Suite struct BundleLoaderTests {
    typealias S = CompilerTestSupport

    @Test func mergesSectionsAcrossFiles() throws {
        let dir = S.makeBundle([
            "a-catalog.yaml": "app: { name: Demo, scheme: demo }\nchannels:\n  push: { kind: push }\ncategories:\n  reminders: { title: Reminders }\nroutes:\n  home: { url: \"demo://home\" }\n",
            "b-types.yaml": "types:\n  one: { category: reminders, channels: [push], copy: { body: One } }\n",
            "c-more-types.yaml": "types:\n  two: { category: reminders, channels: [push], copy: { body: Two } }\ncaps:\n  - { max: 1, per: day }\n",
            "d-policy.yml": "caps:\n  - { max: 2, per: week }\n",
        ])
        let result = Validator.validate(dir)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description))")
        let b = try #require(result.bundle)
        #expect(b.types.names == ["one", "two"])
        // List sections concatenate in file-name order; default ids count across files.
        #expect(b.caps.map(\.id) == ["caps[0]", "caps[1]"])
        if case .fixed(2)? = b.caps[1].max {} else { Issue.record("second cap from d-policy.yml") }
        #expect(result.sources.count == 4)
        #expect(b.files.count == 4)
    }

    @Test func entryDefinedInTwoFilesNamesBothPlaces() throws {
        let dir = S.makeBundle([
            "a.yaml": S.minimalBundle,
            "b.yaml": "types:\n  daily-reminder: { category: reminders, channels: [push], copy: { body: Again } }\n",
        ])
        let d = Validator.validate(dir).diagnostics.sorted
        #expect(d.map(\.code.id) == ["H0005"])
        let first = try #require(d.first)
        #expect(first.span?.start.path == dir + "/b.yaml" && first.span?.start.line == 2)
        #expect(first.notes.first?.span?.start.path == dir + "/a.yaml")
        #expect(first.notes.first?.span?.start.line == 12)
    }

    @Test func singleSectionDefinedTwice() {
        let dir = S.makeBundle(["a.yaml": S.minimalBundle + "dst: { gap: next_valid_minute }\n", "b.yaml": "dst: { overlap: first }\n"])
        let d = Validator.validate(dir).diagnostics.sorted
        #expect(d.map(\.code.id) == ["H0005"])
        #expect(d.first?.notes.count == 1)
    }

    @Test func policyLoadsItsCatalog() throws {
        let root = S.makeBundle([
            "catalog/demo/catalog.yaml": S.minimalBundle,
            "policies/demo/policy.yaml": "catalog: ../../catalog/demo\nname: demo-default\ncaps:\n  - { id: daily, max: 3, per: day }\n",
            "policies/demo/tests/ignored.yaml": "this is: [not read\n",
        ])
        let result = Validator.validate(root + "/policies/demo")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description))")
        let b = try #require(result.bundle)
        #expect(b.name == "demo-default" && b.types.count == 1 && b.caps.map(\.id) == ["daily"])
        // Paths are normalised lexically: no `..` left in them.
        #expect(Set(result.sources.keys) == [root + "/catalog/demo/catalog.yaml", root + "/policies/demo/policy.yaml"])
    }

    @Test func catalogNotFound() {
        let dir = S.makeBundle(["policy.yaml": "catalog: ../nowhere\n"])
        let d = Validator.validate(dir).diagnostics.sorted
        #expect(d.map(\.code.id) == ["H0004"])
        #expect(d.first?.span?.start == SourceLocation(path: dir + "/policy.yaml", line: 1, column: 10, offset: 9))
    }

    @Test func catalogWithoutYAML() {
        let dir = S.makeBundle(["policy.yaml": "catalog: ./cat\n", "cat/README.md": "nothing\n"])
        #expect(S.codes(Validator.validate(dir)) == ["H0003"])
    }

    @Test func pathNotFoundAndEmptyDirectory() {
        let missing = Validator.validate("/nonexistent/herald/bundle")
        #expect(S.codes(missing) == ["H0001"])
        #expect(missing.bundle == nil && missing.diagnostics.first?.span == nil)
        let empty = S.makeBundle(["README.md": "no yaml here\n"])
        #expect(S.codes(Validator.validate(empty)) == ["H0003"])
    }

    @Test func unreadableFile() throws {
        let dir = S.makeBundle(["bundle.yaml": S.minimalBundle])
        try FileManager.default.createSymbolicLink(atPath: dir + "/broken.yaml", withDestinationPath: dir + "/missing-target")
        #expect(S.codes(Validator.validate(dir)) == ["H0002"])
    }

    /// Issue 15, item 2: the size comes from the file system. The file is a sparse 64 GiB, so
    /// its size in the message cannot come from reading it (reading stops one byte past the
    /// 4 MiB limit), and reading it whole would not finish; it is not kept as a source, so no
    /// snippet can echo it.
    @Test func oversizedFileIsRejectedFromItsSizeWithoutBeingRead() throws {
        let dir = S.makeBundle(["bundle.yaml": S.minimalBundle])
        let path = dir + "/huge.yaml"
        let size: UInt64 = 64 << 30
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
        let loaded = BundleLoader.load(dir)
        let d = loaded.diagnostics.sorted
        #expect(d.map(\.code.id) == ["H0110"])
        #expect(d.first?.message == "file is \(size) bytes, more than the limit of \(YAMLLimits.standard.maxBytes) bytes")
        #expect(d.first?.span?.start == SourceLocation(path: path, line: 1, column: 1, offset: 0))
        #expect(loaded.sources[path] == nil)
        #expect(loaded.files == [dir + "/bundle.yaml"])
        try FileManager.default.removeItem(atPath: path)
    }

    #if os(Linux)
    /// A file whose size on disk says 0 but that holds more (a `/proc` file; equally, one that
    /// grows after it was measured) is read only to one byte past the limit.
    @Test func readingStopsPastTheLimitWhateverTheSizeSaid() throws {
        let size = try #require((try FileManager.default.attributesOfItem(atPath: "/proc/self/status")[.size] as? NSNumber)?.intValue)
        #expect(size == 0)
        guard case .failure(let problem) = BundleLoader.readFile("/proc/self/status", limits: YAMLLimits(maxBytes: 64)) else {
            Issue.record("a file over the limit was read")
            return
        }
        #expect(problem.diagnostic.code == .yamlFileTooLarge)
        #expect(problem.diagnostic.message == "file is more than the limit of 64 bytes")
        guard case .success(let file) = BundleLoader.readFile("/proc/self/status") else {
            Issue.record("a small file was not read")
            return
        }
        #expect(file.bytes.count > 64)
    }
    #endif

    @Test func noCatalogAndNoTypes() {
        let dir = S.makeBundle(["policy.yaml": "caps:\n  - { max: 3, per: day }\n"])
        let d = Validator.validate(dir).diagnostics.sorted
        #expect(d.map(\.code.id) == ["H0006"])
        #expect(d.first?.span?.start.line == 1)
    }

    @Test func singleFileBundle() throws {
        let dir = S.makeBundle(["bundle.yaml": S.minimalBundle])
        let result = Validator.validate(dir + "/bundle.yaml")
        #expect(!result.diagnostics.hasErrors)
        #expect(result.bundle?.types.count == 1)
    }

    @Test func yamlErrorsGateTheCompile() {
        let dir = S.makeBundle(["bundle.yaml": S.minimalBundle.replacingOccurrences(of: "category: reminders", with: "category: [reminders")])
        let codes = S.codes(Validator.validate(dir))
        #expect(codes.allSatisfy { $0.hasPrefix("H01") } && !codes.isEmpty)
    }

    @Test func lexicalNormalisation() {
        #expect(BundleLoader.normalize("policies/handz/../../catalog/handz/types.yaml") == "catalog/handz/types.yaml")
        #expect(BundleLoader.normalize("./policies/handz/") == "policies/handz")
        #expect(BundleLoader.normalize("../x/./y") == "../x/y")
        #expect(BundleLoader.normalize("/a/b/../../..") == "/")
        #expect(BundleLoader.normalize(".") == ".")
        #expect(BundleLoader.join("policies/handz", "../../catalog/handz") == "policies/handz/../../catalog/handz")
        #expect(BundleLoader.join(".", "bundle.yaml") == "bundle.yaml")
    }

    @Test func digestIsStableAndContentSensitive() throws {
        let a = S.makeBundle(["bundle.yaml": S.minimalBundle])
        let b = S.makeBundle(["bundle.yaml": S.minimalBundle])
        let c = S.makeBundle(["bundle.yaml": S.minimalBundle + "# a comment\n"])
        let da = try #require(Validator.validate(a).bundle?.digest)
        #expect(da == Validator.validate(b).bundle?.digest)
        #expect(da != Validator.validate(c).bundle?.digest)
        #expect(da == PolicyBundle.fnv1a64([Array(S.minimalBundle.utf8)]))
        #expect(PolicyBundle.fnv1a64([]) == "cbf29ce484222325")
        #expect(PolicyBundle.fnv1a64([Array("a".utf8)]) == "af63dc4c8601ec8c")
    }

    @Test func handzPathsAreRepoRelativeWhenGivenRelative() {
        // `policies/handz` + `../../catalog/handz/types.yaml` → `catalog/handz/types.yaml`.
        let root = CompilerTestSupport.repoRoot
        let result = Validator.validate(root + "/policies/handz/")
        #expect(result.sources.keys.contains(root + "/catalog/handz/types.yaml"))
        #expect(result.sources.keys.contains(root + "/policies/handz/policy.yaml"))
        #expect(result.sources.count == 10)  // with catalog/handz/prompt.yaml and prefs.yaml
    }
}
