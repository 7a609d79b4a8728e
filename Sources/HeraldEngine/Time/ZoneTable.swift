import Foundation
import Synchronization

/// The offset history of one zone, built once per process from the system's tz database
/// (a TZif file) and then immutable, so every `Zone` value can share it across threads
/// without locks.
///
/// `offsets[i]` is in force on `[transitions[i - 1], transitions[i])`; the first segment
/// reaches back to `Int.min` and the last forward to `Int.max`. The table lists the file's
/// transitions (the zone's whole history, local mean time before the first) and then the
/// footer rule's for at least 400 years and one more. The rule repeats every 400 Gregorian
/// years (`cyclePeriod`: a whole number of days and of weeks, so the same dates and
/// weekdays), so an instant past `cycleEnd` has the offset, wall-clock time, local date and
/// weekday pattern of the instant whole periods earlier in `cycleStart ..< cycleEnd`: the
/// searches map such instants back (`periodShift`) and shift their answers forward.
final class ZoneTable: Sendable {
    let identifier: String
    /// Instants at which a new offset takes effect, strictly increasing.
    let transitions: [Int]
    /// `transitions.count + 1` offsets, seconds east of UTC.
    let offsets: [Int]
    /// From `cycleEnd` on, local time repeats that of `cyclePeriod` seconds earlier;
    /// `Int.max` for a zone whose last offset holds for ever. The listed transitions reach a
    /// year past it, so a search that starts before it need not map back.
    let cycleEnd: Int
    let minOffset: Int
    let maxOffset: Int
    /// `cycleEnd + maxOffset`: a search for local seconds from here on starts past the cycle.
    private let cycleEndLocal: Int
    /// For each `2^bucketShift`-second bucket of `coverage` (about 12 days), the segment
    /// holding the bucket's first instant: a lookup starts there and steps over the bucket's
    /// few transitions (none in most buckets, at most a handful) instead of searching all of
    /// them. About 4,000 entries (8 KB) per zone.
    private let bucketSegments: [UInt16]
    static let bucketShift = 20

    /// 400 Gregorian years: 146,097 days, exactly 20,871 weeks, so a POSIX rule's
    /// transitions in year `y + 400` are those of year `y` shifted by this many seconds.
    static let cyclePeriod = 146_097 * 86_400

    /// The start of the repeated cycle (`cycleEnd - cyclePeriod`).
    var cycleStart: Int { cycleEnd == .max ? .max : cycleEnd - Self.cyclePeriod }

    /// A table over `transitions`; with a `cycleEnd`, local time from it on must repeat
    /// that of `cyclePeriod` seconds earlier, and the transitions must be listed to at least
    /// a year past it.
    init(identifier: String, transitions: [Int], offsets: [Int], cycleEnd: Int = .max) {
        precondition(offsets.count == transitions.count + 1, "one offset per segment")
        precondition(cycleEnd >= Self.coverage.upperBound, "the buckets index listed transitions only")
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.cycleEnd = cycleEnd
        self.minOffset = offsets.min() ?? 0
        self.maxOffset = offsets.max() ?? 0
        self.cycleEndLocal = cycleEnd == .max ? .max : cycleEnd + maxOffset
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

    /// Whole periods, in seconds, that `instant` lies past `cycleEnd` (rounded down from
    /// `cycleStart`): subtracting them maps it into `cycleStart ..< cycleEnd` with the same
    /// offset, wall-clock time, date pattern and weekday. 0 before `cycleEnd`.
    @inline(__always)
    func periodShift(_ instant: Int) -> Int {
        guard instant >= cycleEnd else { return 0 }
        return (instant - cycleStart) / Self.cyclePeriod * Self.cyclePeriod
    }

    /// The index of the listed segment holding `instant`, mapped back by `periodShift`:
    /// the number of transitions at or before it.
    /// - Complexity: O(1) inside `coverage` (a bucket, then its few transitions); O(log n)
    ///   outside it, n ≈ 1,000 for a zone with DST.
    @inline(__always)
    func segment(containing instant: Int) -> Int {
        let offset = instant &- Self.coverage.lowerBound
        let bucket = offset >> Self.bucketShift
        if offset >= 0, bucket < bucketSegments.count {
            var segment = Int(bucketSegments[bucket])
            while segment < transitions.count && transitions[segment] <= instant { segment &+= 1 }
            return segment
        }
        return listedSegment(containing: instant - periodShift(instant))
    }

    /// The number of listed transitions at or before `instant`, which must be before
    /// `cycleEnd` (or in a table without one) to name its segment.
    @inline(__always)
    func listedSegment(containing instant: Int) -> Int {
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

    /// The transitions in `range`, listed or repeated.
    func transitions(in range: Range<Int>) -> [Int] {
        var result = transitions.filter { range.contains($0) && $0 < cycleEnd }
        guard cycleEnd != .max, range.upperBound > cycleEnd else { return result }
        let cycle = transitions.filter { $0 >= cycleStart && $0 < cycleEnd }
        var shift = Swift.max(Self.cyclePeriod, periodShift(range.lowerBound))
        while cycleStart + shift < range.upperBound {
            result += cycle.lazy.map { $0 + shift }.filter { range.contains($0) }
            shift += Self.cyclePeriod
        }
        return result
    }

    /// The first instant `t` whose local seconds `t + offset(at: t)` lie in `[from, below)`,
    /// or nil if the local clock never shows such a value.
    ///
    /// Within one segment local time is `t + o`, increasing, so the segment's candidates
    /// form one interval; the answer is the lower end of the first non-empty one. Only
    /// segments that can reach `[from, below)` are visited (usually one or two).
    @inline(__always)
    func firstInstant(localFrom from: Int, below: Int) -> Int? {
        if from >= cycleEndLocal { return firstInstantPastCycle(localFrom: from, below: below) }
        return firstInstantListed(localFrom: from, below: below)
    }

    /// Past `cycleEnd` the search runs whole periods earlier and its answer is shifted back.
    @inline(never)
    func firstInstantPastCycle(localFrom from: Int, below: Int) -> Int? {
        let shift = periodShift(from - maxOffset)
        return firstInstantListed(localFrom: from &- shift, below: below &- shift).map { $0 &+ shift }
    }

    /// The search over the listed segments, starting before `cycleEnd`.
    func firstInstantListed(localFrom from: Int, below: Int) -> Int? {
        let count = transitions.count
        var i = listedSegment(containing: from - maxOffset)
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
    /// The buckets cover 1969-01-01 ..< 2101-01-01 UTC, where lookups are O(1); the table
    /// itself covers every instant.
    static let coverage = -31_536_000 ..< 4_133_980_800

    /// The table of a zone's TZif data: the listed transitions, then the footer rule's, from
    /// the last listed one through a 400-year cycle that starts at least a year after it and
    /// no earlier than 1969 (so the buckets index listed transitions only), and a year more.
    /// Transitions that do not change the offset are dropped.
    /// - Returns: nil when the footer is not a TZ string Herald reads, or contradicts the
    ///   last listed offset (RFC 8536 §3.3 requires them to agree).
    /// - Complexity: about 800 rule transitions for a zone with daylight saving time.
    static func build(identifier: String, tzif: TZif) -> ZoneTable? {
        var transitions: [Int] = []
        var offsets = [tzif.offsets[0]]
        func add(_ instant: Int, _ offset: Int) {
            guard offset != offsets[offsets.count - 1] else { return }
            transitions.append(instant)
            offsets.append(offset)
        }
        for (index, instant) in tzif.transitions.enumerated() { add(instant, tzif.offsets[index + 1]) }
        if tzif.footer.isEmpty {
            // No rule: RFC 8536 leaves later local time unspecified; the last offset holds.
            return ZoneTable(identifier: identifier, transitions: transitions, offsets: offsets)
        }
        guard let rule = PosixTZRule(tzif.footer) else { return nil }
        guard rule.daylight != nil else {
            // A fixed footer must name the offset already in force (with no transitions, it
            // governs all time, and so must agree with time type 0).
            guard rule.standardOffset == offsets[offsets.count - 1] else { return nil }
            return ZoneTable(identifier: identifier, transitions: transitions, offsets: offsets)
        }
        // With no transitions the rule governs all time: it starts from standard time in
        // year −1, before any instant Herald accepts, and that offset holds before it.
        let last = tzif.transitions.last
        if last == nil { offsets[0] = rule.standardOffset }
        let lastYear = last.map { CivilDate(days: Zone.floorDiv($0, 86_400)).year } ?? 0
        let cycleYear = Swift.max(lastYear + 2, 1969)
        let cycleStart = CivilDate(year: cycleYear, month: 1, day: 1).days * 86_400
        let cycleEnd = cycleStart + cyclePeriod
        let listedEnd = CivilDate(year: cycleYear + 401, month: 1, day: 1).days * 86_400

        // Every change of the years that can reach (last, listedEnd), in order. A start and
        // an end at one instant cancel (`0/0,J365/25`, daylight time all year, ends each year
        // where the next begins), so the offset stays as it was.
        var changes: [PosixTZRule.Change] = []
        for year in (lastYear - 1) ... (cycleYear + 401) { changes += rule.changes(inYear: year) }
        changes.sort { $0.instant < $1.instant }
        var index = 0
        while index < changes.count {
            let instant = changes[index].instant
            var starts = false, ends = false
            while index < changes.count, changes[index].instant == instant {
                if changes[index].daylight { starts = true } else { ends = true }
                index += 1
            }
            if let last, instant <= last { continue }
            if instant >= listedEnd { break }
            if starts != ends { add(instant, rule.offset(daylight: starts)) }
        }
        // Local time must repeat from `cycleEnd` on: the offsets listed there (the year past
        // the cycle) must be those a period earlier, which holds when the listed transitions
        // agree with the rule where the cycle starts.
        func listedOffset(_ t: Int) -> Int { offsets[transitions.partitioningIndex { $0 > t }] }
        for t in [cycleStart - 1, cycleStart, cycleStart + 100 * 86_400, cycleStart + 200 * 86_400]
        where listedOffset(t) != listedOffset(t + cyclePeriod) {
            return nil
        }
        return ZoneTable(identifier: identifier, transitions: transitions, offsets: offsets, cycleEnd: cycleEnd)
    }
}

private extension Array where Element == Int {
    /// The first index whose element satisfies `belongs`, which holds from some index on.
    func partitioningIndex(where belongs: (Int) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongs(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
