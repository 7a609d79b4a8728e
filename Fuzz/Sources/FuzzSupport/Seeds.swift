import Foundation
import HeraldSyntax

/// Seed corpora, generated from the shipped files rather than committed (docs/fuzzing.md):
/// scripts/fuzz.sh runs a target once with `HERALD_FUZZ_SEEDS=<dir>`, the target's
/// `LLVMFuzzerInitialize` writes its seeds there and exits.
public enum Seeds {
    /// Writes the seeds `make` produces into `$HERALD_FUZZ_SEEDS` and exits, when that is set;
    /// otherwise returns at once. Call from `LLVMFuzzerInitialize`.
    public static func writeIfRequested(_ make: () -> [[UInt8]]) {
        guard let directory = ProcessInfo.processInfo.environment["HERALD_FUZZ_SEEDS"], !directory.isEmpty else { return }
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var written = Set<String>()
            for seed in make() {
                // Named by content (FNV-1a 64), so regenerating never duplicates a seed.
                let name = "seed-" + fnv1a64(seed)
                guard written.insert(name).inserted else { continue }
                try Data(seed).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
            }
            FileHandle.standardError.write(Data("wrote \(written.count) seeds to \(directory)\n".utf8))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("cannot write seeds to \(directory): \(error)\n".utf8))
            exit(1)
        }
    }

    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Repository-relative directories whose YAML files seed the targets.
    public static let yamlDirectories = ["catalog", "policies", "Tests/Fixtures"]

    /// Every `.yaml`/`.yml` file under `directories` (relative to the repository), recursively,
    /// as absolute paths in sorted order.
    public static func yamlFiles(under directories: [String] = yamlDirectories) -> [String] {
        files(under: directories) { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
    }

    /// Files under `directories` (relative to the repository) whose names pass `keep`.
    public static func files(under directories: [String], _ keep: (String) -> Bool) -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        for directory in directories {
            let base = Fuzz.repositoryRoot + "/" + directory
            guard let walker = fm.enumerator(atPath: base) else { continue }
            while let relative = walker.nextObject() as? String {
                let path = base + "/" + relative
                var isDirectory: ObjCBool = false
                if keep(relative), fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    found.append(path)
                }
            }
        }
        return found.sorted()
    }

    /// A file's bytes (empty when unreadable: a seed is only a starting point).
    public static func read(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    /// The text of every scalar in the shipped YAML files that is the value of one of `keys`
    /// (in any mapping, at any depth; a mapping value's own scalars too when `nested` is set,
    /// as for `copy: { title: …, body: … }`), without duplicates.
    public static func scalars(under keys: Set<String>, nested: Set<String> = []) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        for path in yamlFiles() {
            let file = SourceFile(path: path, bytes: read(path))
            guard let root = YAMLReader.read(file).root else { continue }
            var stack = [root]
            while let node = stack.popLast() {
                switch node.kind {
                case .scalar: break
                case .sequence(let items): stack.append(contentsOf: items)
                case .mapping(let pairs):
                    for pair in pairs {
                        if keys.contains(pair.key.value), let scalar = pair.value.scalar, seen.insert(scalar.value).inserted {
                            out.append(scalar.value)
                        }
                        if nested.contains(pair.key.value), let inner = pair.value.mapping {
                            for entry in inner {
                                if let scalar = entry.value.scalar, seen.insert(scalar.value).inserted { out.append(scalar.value) }
                            }
                        }
                        stack.append(pair.value)
                    }
                }
            }
        }
        return out
    }
}
