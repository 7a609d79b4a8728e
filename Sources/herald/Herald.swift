import ArgumentParser

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Herald: a rules-as-data notification policy engine.",
        discussion: """
            Exit codes: 0 ok, 1 the policy is invalid (or a test failed), 64 bad usage.
            """,
        version: "0.1.0",
        subcommands: subcommands
    )

    /// `serve` is built in with the `Server` trait (on by default; Package.swift).
    static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            Validate.self, Test.self, Decide.self, Explain.self, PlanCommand.self, ReconcileCommand.self, PromptCommand.self, Schema.self,
            EventCommand.self, LedgerCommand.self, Simulate.self, DiffCommand.self, LanguageServerCommand.self,
        ]
        #if Server
        commands.append(Serve.self)
        #endif
        return commands
    }
}
