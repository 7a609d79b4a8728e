/// A zone's table held unretained, so that a `Zone` is plain data: copying or dropping one
/// counts no reference.
///
/// Invariant: the table lives as long as the process. Only two kinds of table are ever
/// referenced: those `ZoneTableCache` builds (it keeps each one and never removes any) and
/// UTC's, kept by a static of `Zone`. `init(immortal:)` is the one way in; never pass it a
/// table that could be freed.
struct ZoneTableRef: @unchecked Sendable {
    private let reference: Unmanaged<ZoneTable>

    init(immortal table: ZoneTable) {
        reference = .passUnretained(table)
    }

    /// The table (a counted reference; hot paths use `withTable`).
    var table: ZoneTable { reference.takeUnretainedValue() }

    /// Runs `body` with the table borrowed (no reference counted).
    @inline(__always)
    func withTable<R>(_ body: (ZoneTable) -> R) -> R { reference._withUnsafeGuaranteedRef(body) }

    /// Both refer to the same table.
    static func === (a: ZoneTableRef, b: ZoneTableRef) -> Bool { a.reference.toOpaque() == b.reference.toOpaque() }
}
