import Foundation
import HeraldSyntax

/// A policy directory as it was at a git revision (`herald diff --base`): its files and its
/// catalog's, read with `git archive` into a temporary directory, so the user checks nothing
/// out. Paths keep their place in the repository, so a policy's `catalog: ../../catalog/x`
/// finds the catalog of the same revision.
struct GitRevision {
    /// Why the revision's files could not be read, in a sentence.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The repository's top directory, the commit the revision names, and the directory
    /// holding the extracted files (removed by `remove()`).
    let top: String
    let commit: String
    let root: String

    /// Where `directory` of the working tree is, relative to the repository's top (no trailing
    /// slash; empty for the top itself).
    let prefix: String

    /// Reads `directory` (a policy directory in a git work tree) and its catalog at `revision`.
    /// - Throws: `Failure` naming what is wrong: no git, not a repository, an unknown revision,
    ///   a directory that did not exist then.
    init(directory: String, revision: String) throws {
        top = try Self.git(["rev-parse", "--show-toplevel"], in: directory, what: "`\(directory)` is not in a git work tree")
        var prefix = try Self.git(["rev-parse", "--show-prefix"], in: directory, what: "`\(directory)` is not in a git work tree")
        while prefix.hasSuffix("/") { prefix.removeLast() }
        self.prefix = prefix
        commit = try Self.git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: top,
                              what: "`\(revision)` is not a commit of the repository at `\(top)`")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-base-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        do {
            try extract(prefix, what: "`\(prefix.isEmpty ? "." : prefix)` did not exist at `\(revision)`")
            for catalog in catalogPaths() where catalog != prefix {
                try extract(catalog, what: "the catalog `\(catalog)` did not exist at `\(revision)`")
            }
        } catch {
            remove()
            throw error
        }
    }

    /// The policy directory as it was.
    var directory: String { prefix.isEmpty ? root : root + "/" + prefix }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The repository-relative directories the extracted policy files name as `catalog:`.
    private func catalogPaths() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var paths: [String] = []
        for name in files.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            guard let bytes = FileManager.default.contents(atPath: directory + "/" + name),
                  let value = YAMLReader.read(SourceFile(path: name, bytes: Array(bytes))).root?["catalog"]?.scalar?.value else { continue }
            var parts = prefix.split(separator: "/").map(String.init)
            for part in value.split(separator: "/") {
                if part == ".." { if parts.popLast() == nil { return paths } } else if part != "." { parts.append(String(part)) }
            }
            paths.append(parts.joined(separator: "/"))
        }
        return paths
    }

    /// `git archive` of one repository-relative path at the commit, unpacked under `root`.
    private func extract(_ path: String, what: String) throws {
        let archive = root + "/.archive.tar"
        defer { try? FileManager.default.removeItem(atPath: archive) }
        _ = try Self.git(["archive", "--format=tar", "--output=" + archive, commit, "--", path.isEmpty ? "." : path], in: top, what: what)
        _ = try Self.run("/usr/bin/env", ["tar", "-xf", archive, "-C", root], in: top, what: "cannot unpack `\(path)` at `\(commit)`")
    }

    /// Runs git in `directory`; its standard output, trimmed.
    private static func git(_ arguments: [String], in directory: String, what: String) throws -> String {
        try run("/usr/bin/env", ["git", "-C", directory] + arguments, in: directory, what: what)
    }

    private static func run(_ executable: String, _ arguments: [String], in directory: String, what: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw GitRevision.Failure("\(what): cannot run `\(arguments.first ?? executable)` (\(error.localizedDescription))")
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw GitRevision.Failure(what + (detail.isEmpty ? "" : " (\(arguments.first ?? "git"): \(detail))"))
        }
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
