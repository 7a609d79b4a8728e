import ArgumentParser
import HeraldContract
import HeraldEngine
import HeraldStore

/// `herald ledger show|forget|prune`: a user's stored ledger.
struct LedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Show, forget or prune the stored ledger.",
        subcommands: [Show.self, Forget.self, Prune.self]
    )

    /// `herald ledger show --store URL --user U`: the user's entries as a JSON array.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a user's ledger entries as JSON, oldest delivery first.")

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "The user id.") var user: String
        @Flag(help: "Print compact JSON on one line.") var compact = false

        func run() async throws {
            let records = try await StoreOpener.run {
                try await StoreOpener.with(storeOptions.store) { try await $0.entries(user: user) }
            }
            print(JSON.array(records.map { $0.json() }).serialized(pretty: !compact))
        }
    }

    /// `herald ledger forget --store URL --user U`: deletes every row of the user.
    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete every ledger row of a user.")

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "The user id.") var user: String

        func run() async throws {
            let deleted = try await StoreOpener.run {
                try await StoreOpener.with(storeOptions.store) { try await $0.forget(user: user) }
            }
            print(JSON.object([JSON.Member("user", .string(user)), JSON.Member("deleted", .int(deleted))]).serialized())
        }
    }

    /// `herald ledger prune <policy-dir> --store URL`: deletes what the policy can no longer look at.
    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete entries older than the longest window the policy can look at.",
            discussion: "Entries of types a lifetime cap counts stay. See docs/store.md § Retention."
        )

        @Argument(help: ArgumentHelp("The policy directory whose windows decide what is kept.", valueName: "policy-dir"))
        var policyDirectory: String
        @OptionGroup var storeOptions: StoreOptions
        @Option(help: ArgumentHelp("The instant to prune at (RFC 3339); default: now.", valueName: "instant"))
        var now: String?

        func run() async throws {
            let loaded = try DecisionInput.load(policyDirectory)
            let now = try StoreOpener.instant(now, option: "now")
            let deleted = try await StoreOpener.run {
                try await StoreOpener.with(storeOptions.store) { store in
                    try await DecisionRecorder(engine: loaded.engine, store: store).prune(now: now)
                }
            }
            print(JSON.object([JSON.Member("deleted", .int(deleted))]).serialized())
        }
    }
}
