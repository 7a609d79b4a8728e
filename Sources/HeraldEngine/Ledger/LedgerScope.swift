/// A set of history entries counted together by a cap, cooldown or dedupe rule.
public enum LedgerScope: Sendable, Hashable, CustomStringConvertible {
    /// Every counted entry, with each batch counted once (see `LedgerIndex`).
    case global
    case type(String)
    /// All types of a category, through the type → category mapping given to the index.
    case category(String)
    case channel(String)
    case subject(String)
    /// One type about one subject (`N-WARRANTY-EXPIRING` for item `42`).
    case typeSubject(type: String, subject: String)

    public var description: String {
        switch self {
        case .global: "global"
        case .type(let t): "type \(t)"
        case .category(let c): "category \(c)"
        case .channel(let c): "channel \(c)"
        case .subject(let s): "subject \(s)"
        case .typeSubject(let t, let s): "type \(t) subject \(s)"
        }
    }
}

extension LedgerScope {
    /// A scope with its hash computed once (FNV-1a over its kind and names): the ledger's
    /// scope table hashes one integer per lookup, and the engine builds the keys of a type's
    /// fixed cap scopes once per bundle, so counting a cap hashes no string.
    struct Key: Hashable, Sendable {
        let scope: LedgerScope
        let hash: Int

        init(_ scope: LedgerScope) {
            self.scope = scope
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            func mix(_ byte: UInt8) {
                h ^= UInt64(byte)
                h = h &* 0x100_0000_01b3
            }
            func mix(_ text: String) {
                // Over the contiguous UTF-8 (every native string): a tight loop, where
                // iterating `utf8` costs several times the multiply per byte.
                if text.utf8.withContiguousStorageIfAvailable({ (bytes) -> Void in for byte in bytes { mix(byte) } }) == nil {
                    for byte in text.utf8 { mix(byte) }
                }
                mix(0xFF)
            }
            switch scope {
            case .global: mix(0)
            case .type(let t): mix(1); mix(t)
            case .category(let c): mix(2); mix(c)
            case .channel(let c): mix(3); mix(c)
            case .subject(let s): mix(4); mix(s)
            case .typeSubject(let t, let s): mix(5); mix(t); mix(s)
            }
            hash = Int(bitPattern: UInt(h))
        }

        static func == (a: Key, b: Key) -> Bool { a.hash == b.hash && a.scope == b.scope }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }
}

/// Scope keys → dense ids, an open-addressing table probed by the keys' precomputed hashes:
/// a lookup compares integers (the hashes are kept apart from the keys) and one scope,
/// read in place, with no hashing and no copy of a key.
struct ScopeTable: Sendable {
    private var keys: [LedgerScope.Key?]
    /// Per place: its key's hash (meaningful where `used`), compared before the key itself.
    private var hashes: [Int]
    /// Per place: it holds a key (`keys[i] != nil`, kept apart so probing reads no key).
    private var used: [Bool]
    private var ids: [Int]
    private(set) var count = 0

    init() {
        keys = Array(repeating: nil, count: 16)
        hashes = Array(repeating: 0, count: 16)
        used = Array(repeating: false, count: 16)
        ids = Array(repeating: 0, count: 16)
    }

    /// The place holding `key`, or the empty place where it would go.
    @inline(__always)
    private func place(of key: borrowing LedgerScope.Key) -> (index: Int, found: Bool) {
        hashes.withUnsafeBufferPointer { hashes in
            used.withUnsafeBufferPointer { used in
                keys.withUnsafeBufferPointer { keys in
                    let mask = hashes.count &- 1
                    var index = key.hash & mask
                    while used[index] {
                        if hashes[index] == key.hash, keys.baseAddress.unsafelyUnwrapped[index].unsafelyUnwrapped.scope == key.scope {
                            return (index, true)
                        }
                        index = (index &+ 1) & mask
                    }
                    return (index, false)
                }
            }
        }
    }

    subscript(key: LedgerScope.Key) -> Int? {
        get {
            let (index, found) = place(of: key)
            return found ? ids[index] : nil
        }
        set {
            guard let id = newValue else { preconditionFailure("scope ids are never removed") }
            if (count + 1) * 4 > keys.count * 3 { grow() }
            let (index, found) = place(of: key)
            ids[index] = id
            guard !found else { return }
            keys[index] = key
            hashes[index] = key.hash
            used[index] = true
            count += 1
        }
    }

    /// Doubles the table, moving each key to its place in the new one (the keys are distinct,
    /// so no key is compared).
    private mutating func grow() {
        let size = keys.count * 2, mask = size &- 1
        var newKeys = [LedgerScope.Key?](repeating: nil, count: size)
        var newHashes = [Int](repeating: 0, count: size)
        var newUsed = [Bool](repeating: false, count: size)
        var newIds = [Int](repeating: 0, count: size)
        for old in keys.indices where used[old] {
            var index = hashes[old] & mask
            while newUsed[index] { index = (index &+ 1) & mask }
            swap(&newKeys[index], &keys[old])
            newHashes[index] = hashes[old]
            newUsed[index] = true
            newIds[index] = ids[old]
        }
        keys = newKeys
        hashes = newHashes
        used = newUsed
        ids = newIds
    }
}
