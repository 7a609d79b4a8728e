/// Invariant: the first `inlineCount` records of the inline tuple are the records, in order;
/// the tuple is read and written only as `capacity` contiguous `TraceRecord`s (plain data:
/// no reference to count or destroy), which is why this file rebinds its memory.

/// A decision's trace records, kept inline: a decision records at most one per stage (ten),
/// so they fit in a fixed buffer that needs no allocation and, being plain data, nothing to
/// release. Appending past `capacity` (which the pipeline never does) goes to `overflow`.
struct TraceRecords: Sendable {
    static let capacity = 12
    private var inline: (TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord,
                         TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord, TraceRecord)
    private var inlineCount: UInt8 = 0
    /// Records past `capacity`; an array, so copies of a `TraceRecords` never share what
    /// one of them appends (copy on write). Optional: nil costs nothing to destroy.
    private var overflow: [TraceRecord]?

    init() {
        let empty = TraceRecord(stage: .request, outcome: .skip, citation: nil, note: .none)
        inline = (empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty)
    }

    /// `first` (at most `capacity` records), then `more`.
    init(_ first: UnsafeBufferPointer<TraceRecord>, more: [TraceRecord]) {
        self.init()
        assign(first, more: more)
    }

    /// Replaces the records with `first` (at most `capacity` records), then `more`, in place.
    mutating func assign(_ first: UnsafeBufferPointer<TraceRecord>, more: [TraceRecord]) {
        overflow = nil
        let count = min(first.count, Self.capacity)
        withUnsafeMutablePointer(to: &inline) {
            $0.withMemoryRebound(to: TraceRecord.self, capacity: Self.capacity) { records in
                if let base = first.baseAddress { records.update(from: base, count: count) }
            }
        }
        inlineCount = UInt8(count)
        for record in more { append(record) }
    }

    var count: Int { Int(inlineCount) + (overflow?.count ?? 0) }

    @inline(__always)
    mutating func append(_ record: TraceRecord) {
        guard Int(inlineCount) < Self.capacity else {
            if overflow == nil { overflow = [] }
            overflow!.append(record)
            return
        }
        let index = Int(inlineCount)
        withUnsafeMutablePointer(to: &inline) {
            $0.withMemoryRebound(to: TraceRecord.self, capacity: Self.capacity) { $0[index] = record }
        }
        inlineCount &+= 1
    }

    /// The records in order.
    func map<T>(_ transform: (TraceRecord) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        var copy = inline
        withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: TraceRecord.self, capacity: Self.capacity) { records in
                for index in 0 ..< Int(inlineCount) { result.append(transform(records[index])) }
            }
        }
        for record in overflow ?? [] { result.append(transform(record)) }
        return result
    }
}
