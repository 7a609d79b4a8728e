import ArgumentParser
import HeraldStore

/// `herald event --store URL --user U --key K --status dismissed`: reports what happened to a
/// recorded notification.
struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Report that a recorded notification was delivered, opened, dismissed or cancelled.",
        discussion: """
            Updates the user's live ledger entry with the key and prints it as JSON. A key no live entry \
            holds is an error (H0704), never an insert. See docs/store.md.
            Exit codes: 0 updated, 1 unknown key or a store failure, 64 bad usage.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The user id.")
    var user: String

    @Option(help: "The entry's key (the decision's `key`).")
    var key: String

    @Option(help: ArgumentHelp("delivered, opened, dismissed or cancelled.", valueName: "status"))
    var status: String

    @Option(help: ArgumentHelp("When it happened (RFC 3339); default: now.", valueName: "instant"))
    var at: String?

    func run() async throws {
        guard let event = LedgerEvent(rawValue: status) else {
            throw ValidationError("`--status` must be one of \(LedgerEvent.allCases.map(\.rawValue).joined(separator: ", ")), not `\(status)`")
        }
        let at = try StoreOpener.instant(at, option: "at")
        let record = try await StoreOpener.run {
            try await StoreOpener.with(storeOptions.store) { store in
                try await store.applyEvent(user: user, key: key, status: event.status, at: at)
            }
        }
        print(record.json().serialized())
    }
}
