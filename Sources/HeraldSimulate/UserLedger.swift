import HeraldContract
import HeraldEngine
import HeraldStore

/// One simulated user's ledger, kept as `InMemoryLedgerStore` keeps a user's rows but used
/// synchronously on the user's own thread: the entries in the order they were made, and the
/// engine's index over them. An event (delivered, opened, dismissed) changes the status of the
/// live entry with its key in the entries and in the index in place
/// (`LedgerIndex.setStatus(_:ofEntryAt:)`); only an event that moves an entry's delivery
/// instant marks the index stale, to be rebuilt at the next read. Retention follows the store's
/// `LedgerWindow`: at most once a simulated day, entries the policy can no longer look at are
/// dropped and the index is rebuilt, as `DecisionRecorder.prune(now:)` would delete them.
///
/// Why not `DecisionRecorder` over `InMemoryLedgerStore` itself: each of its decisions is an
/// async unit of work that re-indexes the user's whole ledger, which costs more than the
/// decision (docs/performance.md, Simulation); a simulation owns each user's ledger outright,
/// so it keeps the index and updates it.
struct UserLedger {
    let engine: Engine
    let window: LedgerWindow
    private(set) var entries: [HistoryEntry] = []
    private var positions: [String: Int] = [:]
    private var cached: LedgerIndex
    private var stale = false
    /// When retention last ran (it runs again a simulated day later).
    private var prunedAt: Int?

    init(engine: Engine, window: LedgerWindow) {
        self.engine = engine
        self.window = window
        cached = engine.ledger([])
    }

    /// The index `decide` reads at `now`; pruned (at most once a simulated day) and rebuilt
    /// here when due.
    mutating func index(now: Int) -> LedgerIndex {
        if prunedAt.map({ now - $0 >= 86_400 }) ?? true {
            prunedAt = now
            if let cutoff = window.pruneCutoff(now: now), entries.first.map({ $0.deliverAt < cutoff }) == true {
                let count = entries.count
                entries.removeAll { $0.deliverAt < cutoff && !window.lifetimeTypes.contains($0.type) }
                if entries.count != count {
                    positions = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { _, last in last })
                    stale = true
                }
            }
        }
        if stale {
            cached = engine.ledger(entries)
            stale = false
        }
        return cached
    }

    mutating func insert(_ entry: HistoryEntry) {
        positions[entry.key] = entries.count
        entries.append(entry)
        if !stale { cached.insert(entry) }
    }

    /// An event: the latest entry with `key` takes `status` (and, when delivered, the instant).
    mutating func setStatus(_ status: HistoryEntry.Status, key: String, at instant: Int?) {
        guard let position = positions[key], entries[position].status != status else { return }
        entries[position].status = status
        if let instant, status == .delivered, entries[position].deliverAt != instant {
            entries[position].deliverAt = instant
            stale = true
        }
        if !stale { cached.setStatus(status, ofEntryAt: position) }
    }
}
