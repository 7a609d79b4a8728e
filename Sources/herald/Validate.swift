public import ArgumentParser
import HeraldPolicy
import HeraldSyntax

// Parsed from `--format text|json|github|sarif`.
extension DiagnosticRenderer.Format: ExpressibleByArgument {}

/// `herald validate <dir>...`: load, compile and lint bundles; report every problem.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check policy bundles and report every problem.",
        discussion: """
            Each path is a policy directory (policies/<app>, which pulls in its catalog), \
            a directory holding both catalog and policy sections, or a single .yaml file.
            Exit codes: 0 valid, 1 invalid (errors, or warnings with --strict), 64 bad usage.
            """
    )

    @Argument(help: ArgumentHelp("Bundle directories (or single .yaml files) to validate.", valueName: "dir"))
    var directories: [String] = []

    @Option(help: "Output format.")
    var format: DiagnosticRenderer.Format = .text

    @Flag(help: "Treat warnings as errors (exit 1 when there are any).")
    var strict = false

    @Flag(name: .customLong("no-color"), help: "Do not color the text output.")
    var noColor = false

    func validate() throws {
        if directories.isEmpty {
            throw ValidationError("no bundle directory given; try `herald validate policies/<app>`")
        }
        for directory in directories {
            if !Terminal.exists(directory) {
                throw ValidationError("`\(directory)` does not exist")
            }
            if !Terminal.isDirectory(directory), !Self.isYAMLFile(directory) {
                throw ValidationError("`\(directory)` is neither a directory nor a `.yaml` file; give a bundle directory")
            }
        }
    }

    /// A single bundle file may be validated on its own (docs/language.md).
    static func isYAMLFile(_ path: String) -> Bool {
        path.hasSuffix(".yaml") || path.hasSuffix(".yml")
    }

    func run() throws {
        var outcomes: [DiagnosticRenderer.Outcome] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        for directory in directories {
            let result = Validator.validate(directory)
            outcomes.append(.init(directory: directory, fileCount: result.sources.count, diagnostics: result.diagnostics.items))
            diagnostics.append(contentsOf: result.diagnostics.items)
            sources.merge(result.sources) { first, _ in first }
        }
        let renderer = DiagnosticRenderer(format: format, color: format == .text && !noColor && Terminal.stdoutWantsColor)
        var output = renderer.render(diagnostics, sources: sources)
        if format == .text {
            if !output.isEmpty { output += "\n" }
            output += renderer.summary(outcomes, strict: strict)
        }
        print(output, terminator: "")
        let errors = diagnostics.contains { $0.severity == .error }
        let warnings = diagnostics.contains { $0.severity == .warning }
        if errors || (strict && warnings) { throw ExitCode(1) }
    }
}
