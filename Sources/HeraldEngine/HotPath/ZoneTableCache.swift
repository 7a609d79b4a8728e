import Foundation
import Synchronization

/// Process-wide cache of built tables: each zone is built once and kept for the life of the
/// process.
///
/// Invariant: a table is never removed (nor the cache freed: it is a static), so a
/// reference to one never dangles; `ZoneTableRef` relies on this and holds tables
/// unretained, and the published slots hold their addresses.
///
/// Deciding looks a zone up per request, so the found tables are also published in a
/// fixed open-addressed array of atomic slots, read without a lock: a hit is a hash of the
/// identifier's bytes, one acquiring load per probe and a comparison. Misses, unknown names
/// and building take the lock (building outside it).
final class ZoneTableCache: @unchecked Sendable {
    static let shared = ZoneTableCache()

    private let lock = NSLock()
    private var tables: [String: ZoneTable] = [:]
    /// Identifiers found unknown, so a bad `prefs.timezone` does not hit the file system per
    /// decision; bounded because identifiers come from user data.
    private var unknown: Set<String> = []
    private static let unknownLimit = 1024

    /// The lock-free read side: `slotCount` slots, each 0 or the address of a table in
    /// `tables`. Written only under `lock`, each slot once (0 → a table); filled at most to
    /// `publishLimit` so that probes stay short and a miss always meets an empty slot.
    /// The IANA database names about 600 zones; identifiers past the limit are still
    /// cached, behind the lock.
    private let slots: UnsafeMutablePointer<Atomic<UInt>>
    private static let slotCount = 4096
    private static let publishLimit = 2048
    private var published = 0

    init() {
        slots = .allocate(capacity: Self.slotCount)
        for index in 0 ..< Self.slotCount { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    func table(for identifier: String) -> ZoneTable? {
        // Unseeded (`TypeIndex.hash`): at most `publishLimit` names are published (each a zone the tz database
        // knows), so colliding names cannot make probes long.
        let hash = TypeIndex.hash(identifier)
        if let table = published(identifier, hash: hash) { return table }
        lock.lock()
        if let table = tables[identifier] {
            lock.unlock()
            return table
        }
        let isKnownUnknown = unknown.contains(identifier)
        lock.unlock()
        if isKnownUnknown { return nil }

        guard let built = Self.load(identifier) else {
            lock.lock()
            if unknown.count < Self.unknownLimit { unknown.insert(identifier) }
            lock.unlock()
            return nil
        }
        lock.lock()
        defer { lock.unlock() }
        if let raced = tables[identifier] { return raced }
        tables[identifier] = built
        publish(built, hash: hash)
        return built
    }

    /// The published table named `identifier`, read without the lock.
    @inline(__always)
    private func published(_ identifier: String, hash: Int) -> ZoneTable? {
        var index = hash & (Self.slotCount - 1)
        while true {
            let bits = slots[index].load(ordering: .acquiring)
            guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
            let table = Unmanaged<ZoneTable>.fromOpaque(address).takeUnretainedValue()
            if table.identifier == identifier { return table }
            index = (index &+ 1) & (Self.slotCount - 1)
        }
    }

    /// Publishes a table just added to `tables` (under `lock`): the release store makes the
    /// built table visible to readers that load its address.
    private func publish(_ table: ZoneTable, hash: Int) {
        guard published < Self.publishLimit else { return }
        var index = hash & (Self.slotCount - 1)
        while slots[index].load(ordering: .relaxed) != 0 { index = (index &+ 1) & (Self.slotCount - 1) }
        slots[index].store(UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()), ordering: .releasing)
        published += 1
    }

    /// The table of a zone of the system's tz database (`ZoneInfoDirectory`). `UTC` is
    /// built in, so the policy default works even where the database is not installed.
    private static func load(_ identifier: String) -> ZoneTable? {
        if identifier == "UTC" { return ZoneTable(identifier: "UTC", transitions: [], offsets: [0]) }
        return ZoneInfoDirectory.table(identifier)
    }
}
