import ArgumentParser
import HeraldLanguageServer

/// `herald lsp`: a language server over standard input and output (docs/editor.md).
struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run a language server for bundle YAML files over stdin and stdout.",
        discussion: """
            Speaks the Language Server Protocol (JSON-RPC with Content-Length framing). \
            An editor starts it; it publishes the validator's diagnostics for each open \
            catalog or policy file as it is edited (docs/editor.md).
            """
    )

    func run() throws {
        var stream = MessageStream()
        let code = LanguageServer().run(&stream)
        if code != 0 { throw ExitCode(code) }
    }
}
