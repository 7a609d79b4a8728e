/// Idempotency key → the delivery instant of its first entry: the ledger's answer to "was
/// this key already sent", which every decision asks once.
///
/// Open addressing (linear probing) over a 64-bit hash of the key's UTF-8 bytes that mixes
/// eight bytes per multiply, with a random per-process seed. For a 30-byte key this costs a
/// few dozen instructions where the standard library's SipHash costs several hundred.
///
/// Keys come from users' history, so collisions could be engineered against an unseeded
/// hash; the seed is not observable from outside, and should an insertion ever probe more
/// than `maxProbe` (64) slots anyway the table moves every key to a standard `Dictionary`
/// (SipHash) and answers from it from then on. Insert-only: the ledger never forgets a key.
struct KeyTable: Sendable {
    /// One key and its first instant; `hash` 0: an empty slot (hashes are made non-zero).
    private struct Slot: Sendable {
        var hash: UInt64 = 0
        var key = ""
        var first = 0
    }

    private var slots: [Slot]
    private(set) var count = 0
    /// Set once probing degrades; then the arrays are empty and unused.
    private var fallback: [String: Int]?

    /// Probes an insertion may take before the table degrades (64 unless a test says less).
    private let maxProbe: Int
    /// Chosen once per process; decisions never depend on it (only where keys sit).
    static let seed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next() | 1
    }()

    init(capacity: Int = 0, maxProbe: Int = 64) {
        self.maxProbe = maxProbe
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: Slot(), count: size)
    }

    /// The first instant recorded for `key`, or nil.
    @inline(__always)
    subscript(key: String) -> Int? {
        if let fallback { return fallback[key] }
        let hash = Self.hash(key)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while true {
                let present = slots[index].hash
                if present == 0 { return nil }
                if present == hash && slots[index].key == key { return slots[index].first }
                index = (index &+ 1) & mask
            }
        }
    }

    /// Records `first` for `key` unless the key is already there (the first entry wins).
    /// - Returns: whether the key was new.
    @discardableResult
    mutating func insert(_ key: String, first: Int) -> Bool {
        if fallback != nil {
            guard fallback![key] == nil else { return false }
            fallback![key] = first
            count += 1
            return true
        }
        if (count + 1) * 2 > slots.count { grow() }
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        var probes = 0
        while slots[index].hash != 0 {
            if slots[index].hash == hash && slots[index].key == key { return false }
            index = (index &+ 1) & mask
            probes += 1
            if probes > maxProbe {
                degrade()
                return insert(key, first: first)
            }
        }
        slots[index] = Slot(hash: hash, key: key, first: first)
        count += 1
        return true
    }

    private mutating func grow() {
        var bigger = KeyTable(capacity: slots.count, maxProbe: maxProbe)
        for slot in slots where slot.hash != 0 {
            bigger.insert(slot.key, first: slot.first)
            if bigger.fallback != nil { break }
        }
        if bigger.fallback != nil { return degrade() }
        self = bigger
    }

    /// Moves every key to a standard dictionary (see the type's note).
    private mutating func degrade() {
        var dictionary: [String: Int] = [:]
        dictionary.reserveCapacity(count)
        for slot in slots where slot.hash != 0 { dictionary[slot.key] = slot.first }
        fallback = dictionary
        slots = []
    }

    /// Whether probing degraded to the standard dictionary (for tests).
    var usesFallback: Bool { fallback != nil }

    /// The seeded hash of `key`'s UTF-8 bytes (never 0).
    @inline(__always)
    static func hash(_ key: String) -> UInt64 {
        hash(key, seed: seed)
    }

    static func hash(_ key: String, seed: UInt64) -> UInt64 {
        // The bytes in place when the string has them contiguously (no copy of the string,
        // so no reference counted); else through a copy.
        if let h = key.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0, seed: seed) }) { return h }
        var key = key
        return key.withUTF8 { hash(bytes: $0, seed: seed) }
    }

    /// `hash(_:seed:)` of UTF-8 bytes.
    @inline(__always)
    static func hash(bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        let h = { () -> UInt64 in
            let n = bytes.count
            var h = seed ^ (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15)
            guard let base = bytes.baseAddress else { return mix(h, 0xA076_1D64_78BD_642F) }
            let raw = UnsafeRawPointer(base)
            var i = 0
            while i + 8 <= n {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                h = mix(h ^ word, 0xA076_1D64_78BD_642F ^ seed)
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            return mix(h ^ tail ^ 0xE703_7ED1_A0B4_28DB, 0x8EBC_6AF0_9C88_C6E3 ^ seed)
        }()
        return h == 0 ? 1 : h
    }

    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
