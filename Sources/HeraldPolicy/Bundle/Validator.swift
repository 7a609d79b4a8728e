// API skeleton: the compiler work replaces this file.
public import HeraldSyntax

/// What validating a bundle directory produced.
public struct ValidationResult: Sendable {
    /// The compiled bundle, when there were no errors.
    public var bundle: PolicyBundle?
    /// Every problem found, errors and warnings.
    public var diagnostics: Diagnostics
    /// Every file read, by the path diagnostics use (for caret snippets).
    public var sources: [String: SourceFile]

    public init(bundle: PolicyBundle?, diagnostics: Diagnostics, sources: [String: SourceFile]) {
        self.bundle = bundle
        self.diagnostics = diagnostics
        self.sources = sources
    }
}

public enum Validator {
    /// Loads the bundle at `directory` (a policy directory pulls in its catalog), compiles it,
    /// runs the lints when `lints` is true, and reports everything.
    public static func validate(_ directory: String, lints: Bool = true) -> ValidationResult {
        ValidationResult(bundle: nil, diagnostics: Diagnostics(), sources: [:])
    }
}
