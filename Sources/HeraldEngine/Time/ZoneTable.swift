import Foundation
import Synchronization

/// The offset history of one zone, built once per process from Foundation and then
/// immutable, so every `Zone` value can share it across threads without locks.
///
/// `offsets[i]` is in force on `[transitions[i - 1], transitions[i])`; the first segment
/// reaches back to `Int.min` and the last forward to `Int.max`.
final class ZoneTable: Sendable {
    let identifier: String
    /// Instants at which a new offset takes effect, strictly increasing.
    let transitions: [Int]
    /// `transitions.count + 1` offsets, seconds east of UTC.
    let offsets: [Int]
    let minOffset: Int
    let maxOffset: Int
    /// For each `2^bucketShift`-second bucket of `coverage` (about 12 days), the segment
    /// holding the bucket's first instant: a lookup starts there and steps over the bucket's
    /// few transitions (none in most buckets, at most a handful) instead of searching all of
    /// them. About 4,000 entries (8 KB) per zone.
    private let bucketSegments: [UInt16]
    static let bucketShift = 20

    init(identifier: String, transitions: [Int], offsets: [Int]) {
        precondition(offsets.count == transitions.count + 1, "one offset per segment")
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.minOffset = offsets.min() ?? 0
        self.maxOffset = offsets.max() ?? 0
        var buckets: [UInt16] = []
        if transitions.count < Int(UInt16.max) {
            let count = (Self.coverage.count + (1 << Self.bucketShift) - 1) >> Self.bucketShift
            buckets.reserveCapacity(count)
            var segment = 0
            for bucket in 0 ..< count {
                let start = Self.coverage.lowerBound + bucket << Self.bucketShift
                while segment < transitions.count && transitions[segment] <= start { segment += 1 }
                buckets.append(UInt16(segment))
            }
        }
        bucketSegments = buckets
    }

    /// The index of the segment holding `instant`: the number of transitions at or before it.
    /// - Complexity: O(1) inside `coverage` (a bucket, then its few transitions); O(log n)
    ///   outside it, n ≈ 260 for a zone with DST.
    @inline(__always)
    func segment(containing instant: Int) -> Int {
        let offset = instant &- Self.coverage.lowerBound
        let bucket = offset >> Self.bucketShift
        if offset >= 0, bucket < bucketSegments.count {
            var segment = Int(bucketSegments[bucket])
            while segment < transitions.count && transitions[segment] <= instant { segment &+= 1 }
            return segment
        }
        var lo = 0
        var hi = transitions.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if transitions[mid] <= instant { lo = mid &+ 1 } else { hi = mid }
        }
        return lo
    }

    @inline(__always)
    func offset(at instant: Int) -> Int { offsets[segment(containing: instant)] }

    /// The first instant `t` whose local seconds `t + offset(at: t)` lie in `[from, below)`,
    /// or nil if the local clock never shows such a value.
    ///
    /// Within one segment local time is `t + o`, increasing, so the segment's candidates
    /// form one interval; the answer is the lower end of the first non-empty one. Only
    /// segments that can reach `[from, below)` are visited (usually one or two).
    func firstInstant(localFrom from: Int, below: Int) -> Int? {
        let count = transitions.count
        var i = segment(containing: from - maxOffset)
        while true {
            let start = i == 0 ? Int.min : transitions[i - 1]
            if i > 0, start >= below - minOffset { return nil }
            let o = offsets[i]
            let lo = Swift.max(start, from - o)
            let hi = i == count ? below - o : Swift.min(transitions[i], below - o)
            if lo < hi { return lo }
            if i == count { return nil }
            i += 1
        }
    }
}

extension ZoneTable {
    /// The table covers 1969-01-01 ..< 2101-01-01 UTC; outside it the nearest offset holds.
    static let coverage = -31_536_000 ..< 4_133_980_800

    /// Samples every 3 hours catch offset changes that Foundation does not report as
    /// daylight-saving transitions (Pacific/Apia's 2011 date-line jump, Asia/Kathmandu's
    /// 1986 change); the DST walk adds each reported transition as a sample so that two
    /// changes inside one 3-hour step are not missed. Every change found is then bisected to
    /// the exact second.
    static let sampleStep = 3 * 3600

    /// Builds the table from Foundation's `TimeZone`, the only place that reads it.
    /// - Complexity: about 400,000 `secondsFromGMT` calls (tens of milliseconds).
    static func build(identifier: String, timeZone: TimeZone) -> ZoneTable {
        func offset(_ t: Int) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }

        var samples = Array(stride(from: coverage.lowerBound, to: coverage.upperBound, by: sampleStep))
        var cursor = Date(timeIntervalSince1970: Double(coverage.lowerBound))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor),
              next > cursor, next.timeIntervalSince1970 < Double(coverage.upperBound) {
            let t = Int(next.timeIntervalSince1970.rounded(.down))
            samples.append(t - 1)
            samples.append(t)
            cursor = next
        }
        samples.append(coverage.upperBound)
        samples.sort()

        var transitions: [Int] = []
        var offsets = [offset(samples[0])]
        var previous = samples[0]
        for sample in samples.dropFirst() where sample > previous {
            let target = offset(sample)
            // Walk from `previous` to `sample`, bisecting each change until the offset agrees.
            var known = previous
            var knownOffset = offsets[offsets.count - 1]
            while knownOffset != target {
                var lo = known        // offset(lo) == knownOffset
                var hi = sample       // offset(hi) != knownOffset
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2
                    if offset(mid) == knownOffset { lo = mid } else { hi = mid }
                }
                knownOffset = offset(hi)
                known = hi
                transitions.append(hi)
                offsets.append(knownOffset)
            }
            previous = sample
        }
        return ZoneTable(identifier: identifier, transitions: transitions, offsets: offsets)
    }
}

/// Process-wide cache of built tables: each zone is built once and kept for the life of the
/// process (a table is never removed, so a reference to one never dangles; `Zone` relies on
/// this and holds its table unretained).
///
/// Deciding looks a zone up per request, so the found tables are also published in a
/// fixed open-addressed array of atomic slots, read without a lock: a hit is a hash of the
/// identifier's bytes, one acquiring load per probe and a comparison. Misses, unknown names
/// and building take the lock (building outside it).
final class ZoneTableCache: @unchecked Sendable {
    static let shared = ZoneTableCache()

    private let lock = NSLock()
    private var tables: [String: ZoneTable] = [:]
    /// Identifiers found unknown, so a bad `prefs.timezone` does not hit Foundation per
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
        // Unseeded (`TypeIndex.hash`): at most `publishLimit` names are published (each a zone Foundation
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

        guard let timeZone = Self.foundationZone(identifier) else {
            lock.lock()
            if unknown.count < Self.unknownLimit { unknown.insert(identifier) }
            lock.unlock()
            return nil
        }
        let built = ZoneTable.build(identifier: identifier, timeZone: timeZone)
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

    /// Foundation also accepts offset spellings (`GMT+5`, `GMT+0530`) that are not IANA
    /// names; Herald rejects them so a zone is always a named region (`Etc/GMT+5` is fine).
    private static func foundationZone(_ identifier: String) -> TimeZone? {
        let ianaLinks: Set = ["GMT+0", "GMT-0"]
        for prefix in ["GMT+", "GMT-", "UTC+", "UTC-"] where identifier.hasPrefix(prefix) && !ianaLinks.contains(identifier) {
            return nil
        }
        return TimeZone(identifier: identifier)
    }
}
