/// Turns diagnostics into text for people or machines. It returns Strings and never prints:
/// the CLI decides where they go and whether to color them.
///
/// Every format writes diagnostics in `Diagnostics.sorted` order (file, line, column, code).
public struct DiagnosticRenderer: Sendable {
    /// The output formats of `herald validate --format`.
    public enum Format: String, Sendable, CaseIterable {
        /// `path:line:col: error[H0101]: message`, a caret snippet, notes and help.
        case text
        /// `{"diagnostics": [...], "errors": n, "warnings": n}`.
        case json
        /// GitHub Actions workflow commands (`::error file=…::message`).
        case github
        /// SARIF 2.1.0, for code-scanning tools.
        case sarif
    }

    public var format: Format
    /// ANSI colors in the text format (the CLI turns them off for pipes and `--no-color`).
    public var color: Bool
    /// When set, paths under this directory are shown relative to it (golden files, SARIF).
    public var relativeTo: String?
    /// Columns between tab stops when a source line holding tabs is shown in a snippet.
    public var tabWidth: Int
    /// SARIF's `tool.driver.informationUri`: where people read about Herald's diagnostics.
    /// The project has no public home yet, so the default is a placeholder in `.invalid`.
    public var toolInformationURI: String = "https://herald.invalid/docs/diagnostics.md"

    public init(format: Format = .text, color: Bool = false, relativeTo: String? = nil, tabWidth: Int = 4) {
        self.format = format
        self.color = color
        self.relativeTo = relativeTo
        self.tabWidth = max(1, tabWidth)
    }

    /// Renders `diagnostics` in the renderer's format.
    ///
    /// - Parameters:
    ///   - diagnostics: what to report; any order (they are sorted).
    ///   - sources: the files read, by the path the diagnostics use, for caret snippets.
    /// - Returns: the whole output, ending with a newline when non-empty. The text format has
    ///   no summary line here; append `summary(…)`.
    public func render(_ diagnostics: [Diagnostic], sources: [String: SourceFile] = [:]) -> String {
        let sorted = Diagnostics(diagnostics).sorted
        switch format {
        case .text: return sorted.map { renderText($0, sources: sources) }.joined()
        case .json: return jsonDocument(sorted).serialized(pretty: true) + "\n"
        case .github: return sorted.map(renderGitHub).joined()
        case .sarif: return sarifDocument(sorted).serialized(pretty: true) + "\n"
        }
    }

    /// The path as shown: relative to `relativeTo` when it is under it.
    public func displayPath(_ path: String) -> String {
        guard var base = relativeTo, !base.isEmpty else { return path }
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        if path == base { return "." }
        let prefix = base == "/" ? "/" : base + "/"
        if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        if base.hasPrefix("./"), path.hasPrefix(String(prefix.dropFirst(2))) {
            return String(path.dropFirst(prefix.count - 2))
        }
        return path
    }

    /// `path:line:col` with the path as shown (`displayPath`).
    public func displayLocation(_ location: SourceLocation) -> String {
        "\(displayPath(location.path)):\(location.line):\(location.column)"
    }
}

// MARK: - Summary line

extension DiagnosticRenderer {
    /// What one validated directory contributes to the summary line.
    public struct Outcome: Sendable, Hashable {
        public var directory: String
        public var fileCount: Int
        public var diagnostics: [Diagnostic]

        public init(directory: String, fileCount: Int, diagnostics: [Diagnostic]) {
            self.directory = directory
            self.fileCount = fileCount
            self.diagnostics = diagnostics
        }
    }

    /// The last line of the text format: `error: 3 errors, 1 warning in 2 files` when any
    /// directory failed (errors, or warnings under `strict`), else one
    /// `ok: policies/app (12 files, 0 warnings)` line per directory. Ends with a newline.
    public func summary(_ outcomes: [Outcome], strict: Bool = false) -> String {
        let all = outcomes.flatMap(\.diagnostics)
        let errors = all.filter { $0.severity == .error }.count
        let warnings = all.filter { $0.severity == .warning }.count
        if errors > 0 || (strict && warnings > 0) {
            let files = Set(all.filter { $0.severity != .note }.compactMap { $0.span?.start.path }).count
            var line = "\(Self.plural(errors, "error")), \(Self.plural(warnings, "warning"))"
            if files > 0 { line += " in \(Self.plural(files, "file"))" }
            if errors == 0 { line += " (warnings fail under --strict)" }
            return paint("error", .error) + paint(": " + line, .bold) + "\n"
        }
        return outcomes.map { outcome in
            let count = outcome.diagnostics.filter { $0.severity == .warning }.count
            let detail = "\(Self.plural(outcome.fileCount, "file")), \(Self.plural(count, "warning"))"
            return paint("ok", .ok) + ": \(outcome.directory) (\(detail))\n"
        }.joined()
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
