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
    /// runs the lints when `lints` is true, and reports everything. `unsaved` text is read in
    /// place of the file at its path (`BundleLoader.load`).
    public static func validate(_ directory: String, lints: Bool = true, unsaved: [String: [UInt8]] = [:]) -> ValidationResult {
        let loaded = BundleLoader.load(directory, unsaved: unsaved)
        var diagnostics = loaded.diagnostics
        var bundle: PolicyBundle?
        // YAML errors gate the compile: a half-read file would only add follow-on noise
        // (a rejected alias reads as a missing key, a rejected `yes` as a bad bool).
        let yamlClean = !loaded.diagnostics.contains { $0.severity == .error && $0.code.id.hasPrefix("H01") }
        if !loaded.files.isEmpty, yamlClean {
            bundle = BundleCompiler.compile(loaded.sections, name: loaded.directoryName, digest: loaded.digest,
                                            files: loaded.files.sorted(), diagnostics: &diagnostics)
        }
        if diagnostics.hasErrors { bundle = nil }
        if lints, let compiled = bundle {
            diagnostics.append(contentsOf: Lints.run(compiled))
            // A lint error (a banned word, sensitive copy on the lock screen) makes the bundle invalid too.
            if diagnostics.hasErrors { bundle = nil }
        }
        return ValidationResult(bundle: bundle, diagnostics: diagnostics, sources: loaded.sources)
    }
}
