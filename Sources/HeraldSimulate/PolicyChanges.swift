public import HeraldSyntax

/// What a change to a bundle's YAML files changed, entry by entry: each top-level section's
/// entries (`types.N-INBOX-NEW-IMPORT`, `caps.daily`, `policy.maxPerDay`) added, removed or
/// written differently, with where each stands (in the new files, or the old ones for a
/// removal). Values are compared as YAML trees, so a reformatted file or a moved comment is no
/// change.
public struct PolicyChanges: Sendable {
    public enum Kind: String, Sendable { case added, removed, changed }

    public struct Entry: Sendable, Equatable {
        public var kind: Kind
        /// `section.entry`, or `section` for a top-level scalar or list.
        public var key: String
        /// The file, relative to its root, and the entry's line in it.
        public var path: String
        public var line: Int
    }

    public var entries: [Entry]

    /// Compares the files of two versions of a bundle, each keyed by its path relative to the
    /// bundle's repository (as `relativePath` gives it), so that the same file pairs up.
    public init(before: [String: SourceFile], after: [String: SourceFile]) {
        var entries: [Entry] = []
        for path in Set(before.keys).union(after.keys).sorted() {
            let old = before[path].map(Self.sections) ?? []
            let new = after[path].map(Self.sections) ?? []
            let oldByKey = Dictionary(old.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
            let newKeys = Set(new.map(\.key))
            for entry in new {
                if let previous = oldByKey[entry.key] {
                    if previous.text != entry.text { entries.append(Entry(kind: .changed, key: entry.key, path: path, line: entry.line)) }
                } else {
                    entries.append(Entry(kind: .added, key: entry.key, path: path, line: entry.line))
                }
            }
            for entry in old where !newKeys.contains(entry.key) {
                entries.append(Entry(kind: .removed, key: entry.key, path: path, line: entry.line))
            }
        }
        self.entries = entries
    }

    /// A file's entries: each member of a top-level mapping, or the section itself when it is
    /// not a mapping. A file that does not read as YAML has none (the validator reports it).
    static func sections(_ file: SourceFile) -> [(key: String, line: Int, text: String)] {
        guard let root = YAMLReader.read(file).root, let pairs = root.mapping else { return [] }
        var out: [(key: String, line: Int, text: String)] = []
        for section in pairs {
            if let members = section.value.mapping {
                for member in members {
                    out.append((section.key.value + "." + member.key.value, member.key.span.start.line, canonical(member.value)))
                }
            } else {
                out.append((section.key.value, section.key.span.start.line, canonical(section.value)))
            }
        }
        return out
    }

    /// A node's content without positions or layout.
    static func canonical(_ node: YAMLNode) -> String {
        switch node.kind {
        case .scalar(let scalar): return scalar.value.debugDescription
        case .sequence(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
        case .mapping(let pairs): return "{" + pairs.map { $0.key.value.debugDescription + ":" + canonical($0.value) }.joined(separator: ",") + "}"
        }
    }
}
