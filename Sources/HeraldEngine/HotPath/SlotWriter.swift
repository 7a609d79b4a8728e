import HeraldPolicy

/// A type's computed values by slot, written in place: `base[0 ..< count]`, initialized, `.null`
/// where absent.
///
/// Invariant: a writer is lent for a closure only (`RequestContext.withComputedSlots`), over `count`
/// initialized values that outlive that closure; every write is range-checked.
struct SlotWriter {
    private let base: UnsafeMutablePointer<Value>
    let count: Int

    init(base: UnsafeMutablePointer<Value>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Sets `slot` (nil: absent); slots out of range are ignored.
    @inline(__always)
    func set(_ slot: Int, _ value: consuming Value?) {
        guard slot >= 0, slot < count else { return }
        base[slot] = value ?? .null
    }
}
