import Foundation

/// Which bundle directories a file belongs to: its own directory, and, when that directory is
/// a catalog, every policy directory in the workspace whose `catalog:` names it.
struct BundleLocator {
    var workspaceRoot: String?
    /// How deep below the workspace root policy directories are looked for.
    var depth = 3

    func bundles(containing path: String, unsaved: [String: [UInt8]]) -> [String] {
        let directory = Self.parent(path)
        var bundles = [directory]
        guard let workspaceRoot else { return bundles }
        for candidate in directories(below: workspaceRoot, depth: depth) where candidate != directory {
            if catalog(of: candidate, unsaved: unsaved) == directory { bundles.append(candidate) }
        }
        return bundles
    }

    /// The catalog directory a policy directory names in a top-level `catalog:` line, resolved
    /// against it (the loader's rule); nil when none of its files names one.
    func catalog(of directory: String, unsaved: [String: [UInt8]]) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            let path = directory + "/" + name
            let bytes = unsaved[path] ?? (FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? [])
            for line in String(decoding: bytes.prefix(64 << 10), as: UTF8.self).split(separator: "\n") where line.hasPrefix("catalog:") {
                var value = line.dropFirst("catalog:".count).trimmingCharacters(in: .whitespaces)
                if let hash = value.range(of: " #") { value = String(value[..<hash.lowerBound]) }
                value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
                guard !value.isEmpty else { continue }
                return Self.normalize(value.hasPrefix("/") ? value : directory + "/" + value)
            }
        }
        return nil
    }

    /// Directories below `root` (itself included), not hidden, to `depth` levels.
    func directories(below root: String, depth: Int) -> [String] {
        var found = [root]
        guard depth > 0 else { return found }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = root + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                found += directories(below: path, depth: depth - 1)
            }
        }
        return found
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `.` and `..` resolved lexically, as the loader names files.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
