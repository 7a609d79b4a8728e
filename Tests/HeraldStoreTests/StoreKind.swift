import Foundation
import HeraldSQLite
import HeraldStore

/// The stores every behavioural test runs against.
enum StoreKind: String, CaseIterable {
    case memory, sqlite

    /// A fresh, empty store (SQLite: a new file in a temporary directory).
    func make() throws -> any LedgerStore {
        switch self {
        case .memory: return InMemoryLedgerStore()
        case .sqlite:
            let directory = StoreFixtures.temporaryDirectory()
            return try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.db").path)
        }
    }
}

