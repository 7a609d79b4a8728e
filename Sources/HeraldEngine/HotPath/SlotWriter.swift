import HeraldPolicy

/// Converted values by slot, written in place: `base[0 ..< count]`, initialized, `.null`
/// where absent. Converting never stores `.null` itself (a `null` of an optional field is
/// absent), so `.null` marks absence unambiguously.
struct SlotWriter {
    let base: UnsafeMutablePointer<Value>
    let count: Int

    /// Sets `slot` (nil: absent); slots out of range are ignored.
    @inline(__always)
    func set(_ slot: Int, _ value: consuming Value?) {
        guard slot >= 0, slot < count else { return }
        base[slot] = value ?? .null
    }
}
