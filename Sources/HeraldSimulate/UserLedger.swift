import HeraldEngine

/// One simulated user's ledger: the entries in the order they were made, and the engine's
/// index over them, re-indexed lazily after an event changed an entry's status (events update
/// entries by key, the latest entry with that key).
struct UserLedger {
    let engine: Engine
    private(set) var entries: [HistoryEntry] = []
    private var positions: [String: Int] = [:]
    private var cached: LedgerIndex
    private var stale = false

    init(engine: Engine) {
        self.engine = engine
        cached = engine.ledger([])
    }

    /// The index `decide` reads; rebuilt here when an event changed a status since the last read.
    var index: LedgerIndex {
        mutating get {
            if stale {
                cached = engine.ledger(entries)
                stale = false
            }
            return cached
        }
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
        if let instant, status == .delivered { entries[position].deliverAt = instant }
        stale = true
    }
}
