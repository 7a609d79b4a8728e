import Foundation

/// The bundle target's input: several YAML files in one text, each starting with a line
/// `#file <path>` (a YAML comment, so a seed reads as one file too). Text before the first such
/// line is `policy.yaml`. Files whose path starts with `catalog/` are the catalog's: like the
/// loader, the target merges them first.
public enum BundleText {
    public static let marker: [UInt8] = Array("#file ".utf8)

    public struct File {
        public var path: String
        public var bytes: [UInt8]
        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Splits an input into its files, catalog files first (each group in input order).
    public static func split(_ input: [UInt8]) -> [File] {
        var files: [File] = []
        var current = File(path: "policy.yaml", bytes: [])
        var started = false
        var lineStart = 0
        while lineStart < input.count {
            var lineEnd = lineStart
            while lineEnd < input.count, input[lineEnd] != 0x0A { lineEnd += 1 }
            let next = min(lineEnd + 1, input.count)
            if input[lineStart..<lineEnd].starts(with: marker) {
                if started || !current.bytes.isEmpty { files.append(current) }
                started = true
                let name = String(decoding: input[(lineStart + marker.count)..<lineEnd], as: UTF8.self)
                    .trimmingCharacters(in: .whitespaces)
                current = File(path: name.isEmpty ? "policy.yaml" : String(name.prefix(80)), bytes: [])
            } else {
                current.bytes.append(contentsOf: input[lineStart..<next])
            }
            lineStart = next
        }
        if started || !current.bytes.isEmpty { files.append(current) }
        let catalog = files.filter { $0.path.hasPrefix("catalog/") }
        return catalog + files.filter { !$0.path.hasPrefix("catalog/") }
    }

    /// The input that `split` reads back as `files` (each file's text must end with a line break).
    public static func join(_ files: [File]) -> [UInt8] {
        var out: [UInt8] = []
        for file in files {
            out += marker + Array(file.path.utf8) + [0x0A]
            out += file.bytes
            if let last = file.bytes.last, last != 0x0A { out.append(0x0A) }
        }
        return out
    }

    /// Seeds: each shipped bundle (its catalog's files and the policy's), and each bundle of
    /// the test fixtures (Tests/Fixtures/diagnostics/*, Tests/Fixtures/engine/*).
    public static func seeds() -> [[UInt8]] {
        let fm = FileManager.default
        let root = Fuzz.repositoryRoot
        func yaml(in directory: String, as prefix: String) -> [File] {
            let names = ((try? fm.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted()
            return names.map { File(path: prefix + $0, bytes: Seeds.read(directory + "/" + $0)) }
        }
        var seeds: [[UInt8]] = []
        for app in ((try? fm.contentsOfDirectory(atPath: root + "/policies")) ?? []).sorted() {
            let files = yaml(in: root + "/catalog/" + app, as: "catalog/\(app)/")
                + yaml(in: root + "/policies/" + app, as: "policies/\(app)/")
            if !files.isEmpty { seeds.append(join(files)) }
        }
        for group in ["Tests/Fixtures/diagnostics", "Tests/Fixtures/engine"] {
            for fixture in ((try? fm.contentsOfDirectory(atPath: root + "/" + group)) ?? []).sorted() {
                let directory = root + "/" + group + "/" + fixture
                let files = yaml(in: directory + "/catalog", as: "catalog/") + yaml(in: directory, as: "")
                if !files.isEmpty { seeds.append(join(files)) }
            }
        }
        return seeds
    }
}
