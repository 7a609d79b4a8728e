// API skeleton: the real reader replaces this body (owner: the YAML reader work).

/// Limits that keep a hostile file from exhausting memory or time.
public struct YAMLLimits: Sendable, Hashable {
    /// Largest file accepted, in bytes.
    public var maxBytes: Int
    /// Deepest nesting of mappings and sequences.
    public var maxDepth: Int
    /// Most nodes (scalars, mappings, sequences) in one file.
    public var maxNodes: Int

    public init(maxBytes: Int = 4 << 20, maxDepth: Int = 64, maxNodes: Int = 100_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    public static let standard = YAMLLimits()
}

/// What reading one file produced: the root node when the file could be read, and every
/// problem found. A file with errors may still have a partial root; callers check
/// `diagnostics.hasErrors`.
public struct YAMLDocumentResult: Sendable {
    public var root: YAMLNode?
    public var diagnostics: Diagnostics

    public init(root: YAMLNode?, diagnostics: Diagnostics) {
        self.root = root
        self.diagnostics = diagnostics
    }
}

/// The strict YAML reader over libyaml's event API.
public enum YAMLReader {
    /// Reads one file. Never crashes or hangs on any input; every problem is a diagnostic.
    public static func read(_ file: SourceFile, limits: YAMLLimits = .standard) -> YAMLDocumentResult {
        YAMLDocumentResult(root: nil, diagnostics: Diagnostics())
    }
}
