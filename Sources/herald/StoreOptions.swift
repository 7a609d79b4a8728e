import ArgumentParser
import Foundation
import HeraldContract
import HeraldEngine
#if Server
import HeraldPostgres
#endif
import HeraldSQLite
import HeraldStore

/// `--store URL`: the ledger `decide`, `event` and `ledger` read and write.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The ledger store: `sqlite:PATH`, `postgres://USER:PASSWORD@HOST:PORT/DB` or `memory:`.", valueName: "url"))
    var store: String
}

/// Opens a store URL: the one place the CLI maps a `StoreLocation` to a store (a new store kind
/// adds its case here).
enum StoreOpener {
    /// Opens the store `text` names.
    /// - Throws: `StoreError` (a bad URL, a store not built in, a damaged or newer database).
    static func open(_ text: String) async throws -> any LedgerStore {
        switch try StoreLocation(parsing: text) {
        case .sqlite(let path): return try SQLiteLedgerStore(path: path)
        case .memory: return InMemoryLedgerStore()
        case .postgres:
            #if Server
            return try await PostgresLedgerStore(url: text)
            #else
            throw StoreError(.badURL, "this herald was built without the `Server` trait, so without PostgreSQL: use `sqlite:PATH`")
            #endif
        }
    }

    /// Opens the store `text` names, runs `body` with it and closes it, also when `body` throws.
    static func with<T>(_ text: String, _ body: (any LedgerStore) async throws -> T) async throws -> T {
        let store = try await open(text)
        do {
            let value = try await body(store)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }

    /// Runs `body`, turning a store failure into `error[H08xx]: …` on standard error and exit 1
    /// (a bad store URL: exit 64), and request problems into the request error lines (exit 1).
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            Terminal.writeError("\(error)\n")
            throw ExitCode(error.code == .badURL ? 64 : 1)
        } catch let errors as RequestErrors {
            try DecisionInput.fail(errors)
        }
    }

    /// An instant option: RFC 3339, or nil for the clock (the CLI reads the clock; the engine never does).
    static func instant(_ text: String?, option: String) throws -> Int {
        guard let text else { return Int(Date().timeIntervalSince1970) }
        guard let instant = RFC3339.parse(text) else {
            throw ValidationError("`--\(option)` must be an RFC 3339 instant such as `2026-03-09T10:00:00Z`, not `\(text)`")
        }
        return instant
    }
}
