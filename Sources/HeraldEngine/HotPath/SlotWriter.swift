import HeraldPolicy

/// Converted values by slot, written in place: `base[0 ..< count]`, initialized, `.null`
/// where absent. Converting never stores `.null` itself (a `null` of an optional field is
/// absent), so `.null` marks absence unambiguously.
///
/// Invariant: a writer is lent for a closure only (`RequestContext.withFieldSlots`,
/// `withParamSlots`, or an array's `withUnsafeMutableBufferPointer`), over `count`
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

    /// The values written so far, copied (`.null`: absent).
    var values: [Value] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
