import Foundation
public import HeraldSyntax

/// The files of a bundle, read and merged by section, ready to compile.
public struct LoadedBundle: Sendable {
    /// Every file's sections, merged (catalog files first, then the policy's).
    public var sections: BundleSections
    /// Every file read, by its diagnostic path.
    public var sources: [String: SourceFile]
    /// The diagnostic paths, in load order.
    public var files: [String]
    /// The bundle directory's name (the default `name`).
    public var directoryName: String
    /// FNV-1a 64 over the files' bytes in sorted path order.
    public var digest: String
    /// Problems reading, parsing and merging the files.
    public var diagnostics: Diagnostics
}

/// Reads a bundle directory: every `.yaml`/`.yml` file directly in it (sorted by name), and,
/// when it names one with `catalog:`, the catalog directory's files too.
public enum BundleLoader {
    /// - Parameters:
    ///   - directory: a bundle directory (or a single `.yaml` file). Diagnostic paths are this
    ///     path joined with each file name, with `.` and `..` resolved lexically.
    ///   - unsaved: text read instead of the file at its path (an editor's open documents); a
    ///     path not on disk is read too when it names a `.yaml` file of a directory loaded.
    public static func load(_ directory: String, unsaved: [String: [UInt8]] = [:]) -> LoadedBundle {
        var diagnostics = Diagnostics()
        var sources: [String: SourceFile] = [:]
        var order: [String] = []
        let root = normalize(directory)
        var loaded = LoadedBundle(sections: BundleSections(), sources: [:], files: [], directoryName: directoryName(root),
                                  digest: PolicyBundle.fnv1a64([]), diagnostics: Diagnostics())

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) || unsaved[root] != nil else {
            diagnostics.error(.pathNotFound, "no such file or directory `\(directory)`", at: nil)
            loaded.diagnostics = diagnostics
            return loaded
        }
        let policyPaths: [String]
        if isDirectory.boolValue {
            policyPaths = yamlFiles(in: root, unsaved: unsaved)
            if policyPaths.isEmpty {
                diagnostics.error(.emptyBundle, "directory `\(directory)` holds no `.yaml` or `.yml` files", at: nil)
            }
        } else {
            policyPaths = [root]
            loaded.directoryName = directoryName(parent(of: root))
        }
        let policyDocuments = read(policyPaths, unsaved: unsaved, sources: &sources, order: &order, diagnostics: &diagnostics)

        // The policy's catalog, loaded first so that catalog entries come first.
        var catalogDocuments: [YAMLNode] = []
        let catalogPair = policyDocuments.lazy.compactMap { $0.mapping?.first { $0.key.value == "catalog" } }.first
        if let catalogPair, let scalar = catalogPair.value.scalar, !catalogPair.value.isNull {
            let base = isDirectory.boolValue ? root : parent(of: root)
            let catalogDirectory = normalize(join(base, scalar.value))
            var catalogIsDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: catalogDirectory, isDirectory: &catalogIsDirectory) || !catalogIsDirectory.boolValue {
                diagnostics.error(.catalogNotFound, "catalog directory `\(scalar.value)` not found",
                                  at: catalogPair.value.span)
            } else if catalogDirectory != base {
                let paths = yamlFiles(in: catalogDirectory, unsaved: unsaved)
                if paths.isEmpty {
                    diagnostics.error(.emptyBundle, "catalog directory `\(scalar.value)` holds no `.yaml` or `.yml` files", at: catalogPair.value.span)
                }
                catalogDocuments = read(paths, unsaved: unsaved, sources: &sources, order: &order, diagnostics: &diagnostics)
            }
        }
        if catalogPair == nil, !policyPaths.isEmpty, !diagnostics.hasErrors,
           !policyDocuments.contains(where: { $0.mapping?.contains { $0.key.value == "types" } ?? false }) {
            let first = policyPaths.first.flatMap { sources[$0] }
            let span = first.map { SourceSpan(at: SourceLocation(path: $0.path, line: 1, column: 1)) }
            diagnostics.error(.missingCatalog, "the bundle names no catalog and declares no types; add `catalog: <path to the catalog directory>`",
                              at: span)
        }

        var sections = BundleSections()
        for document in catalogDocuments + policyDocuments {
            sections.merge(document, diagnostics: &diagnostics)
        }
        loaded.sections = sections
        loaded.sources = sources
        loaded.files = order
        loaded.digest = PolicyBundle.fnv1a64(order.sorted().map { sources[$0]!.bytes })
        loaded.diagnostics = diagnostics
        return loaded
    }

    /// Reads files and parses them, the parsing spread over the machine's cores (files are
    /// independent); documents and diagnostics come back in the order of `paths`, as if read
    /// one by one. A path already read, unreadable or without a document gives no document.
    private static func read(_ paths: [String], unsaved: [String: [UInt8]], sources: inout [String: SourceFile], order: inout [String],
                             diagnostics: inout Diagnostics) -> [YAMLNode] {
        enum Read {
            case failed(Diagnostic)
            case file(Int)
        }
        var reads: [Read] = []
        var files: [SourceFile] = []
        for path in paths where sources[path] == nil {
            switch unsaved[path].map({ unsavedFile(path, bytes: $0) }) ?? readFile(path) {
            case .success(let file):
                sources[path] = file
                order.append(path)
                reads.append(.file(files.count))
                files.append(file)
            case .failure(let problem):
                reads.append(.failed(problem.diagnostic))
            }
        }
        let results = parse(files)
        var documents: [YAMLNode] = []
        for read in reads {
            switch read {
            case .failed(let diagnostic):
                diagnostics.append(diagnostic)
            case .file(let index):
                diagnostics.append(contentsOf: results[index].diagnostics)
                if let root = results[index].root { documents.append(root) }
            }
        }
        return documents
    }

    struct ReadProblem: Error {
        var diagnostic: Diagnostic
    }

    /// An open document's text, held to the same size limit as a file.
    static func unsavedFile(_ path: String, bytes: [UInt8], limits: YAMLLimits = .standard) -> Result<SourceFile, ReadProblem> {
        if bytes.count > limits.maxBytes {
            return .failure(ReadProblem(diagnostic: limits.fileTooLarge(path: path, size: bytes.count)))
        }
        return .success(SourceFile(path: path, bytes: bytes))
    }

    /// One file's bytes, or why it cannot be read.
    ///
    /// The size is taken from the file system first: a file over `limits.maxBytes` is never
    /// opened (H0110 without a source, so no snippet can echo it), and reading stops one byte
    /// past the limit, so a file that grows after it was measured is not read whole either.
    static func readFile(_ path: String, limits: YAMLLimits = .standard) -> Result<SourceFile, ReadProblem> {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        // Only regular files are read: a FIFO or device named `x.yaml` would block or never end.
        let kind = attributes?[.type] as? FileAttributeType
        guard let attributes, kind == .typeRegular else {
            return .failure(ReadProblem(diagnostic: Diagnostic(.unreadableFile, "cannot read `\(path)`: not a regular file", at: nil, severity: .error)))
        }
        if let size = (attributes[.size] as? NSNumber)?.int64Value, size > Int64(limits.maxBytes) {
            return .failure(ReadProblem(diagnostic: limits.fileTooLarge(path: path, size: Int(size))))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(ReadProblem(diagnostic: Diagnostic(.unreadableFile, "cannot read `\(path)`", at: nil, severity: .error)))
        }
        defer { try? handle.close() }
        var data = Data()
        do {
            while data.count <= limits.maxBytes {
                guard let chunk = try handle.read(upToCount: limits.maxBytes + 1 - data.count), !chunk.isEmpty else { break }
                data.append(chunk)
            }
        } catch {
            return .failure(ReadProblem(diagnostic: Diagnostic(.unreadableFile, "cannot read `\(path)`", at: nil, severity: .error)))
        }
        if data.count > limits.maxBytes {
            return .failure(ReadProblem(diagnostic: limits.fileTooLarge(path: path, size: nil)))
        }
        return .success(SourceFile(path: path, bytes: [UInt8](data)))
    }

    /// Parses files concurrently (one libyaml parser each); results in the order given.
    private static func parse(_ files: [SourceFile]) -> [YAMLDocumentResult] {
        Concurrently.map(files) { YAMLReader.read($0) }
    }

    /// The `.yaml`/`.yml` files directly in `directory`, and the unsaved ones, sorted by name,
    /// as joined paths.
    private static func yamlFiles(in directory: String, unsaved: [String: [UInt8]]) -> [String] {
        var names = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        for path in unsaved.keys where parent(of: path) == directory {
            names.insert(String(path.split(separator: "/").last ?? ""))
        }
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .filter { name in
                // Sub-directories (even one named `x.yaml`) are not read; a dangling link is
                // kept so that reading it reports H0002.
                var isDirectory: ObjCBool = false
                return !(FileManager.default.fileExists(atPath: join(directory, name), isDirectory: &isDirectory) && isDirectory.boolValue)
            }
            .sorted()
            .map { join(directory, $0) }
    }

    // MARK: Paths (lexical)

    static func join(_ base: String, _ name: String) -> String {
        if name.hasPrefix("/") { return name }
        if base.isEmpty || base == "." { return name }
        return base.hasSuffix("/") ? base + name : base + "/" + name
    }

    /// Resolves `.` and `..` lexically: `policies/app/../../catalog/app` → `catalog/app`.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    static func directoryName(_ path: String) -> String {
        if path == "." || path.isEmpty {
            return FileManager.default.currentDirectoryPath.split(separator: "/").last.map(String.init) ?? "bundle"
        }
        return path.split(separator: "/").last.map(String.init) ?? "bundle"
    }
}
