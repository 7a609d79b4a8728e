import Foundation

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
