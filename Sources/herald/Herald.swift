import ArgumentParser

@main
struct Herald: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Herald: a rules-as-data notification policy engine.",
        version: "0.1.0",
        subcommands: []
    )
}
