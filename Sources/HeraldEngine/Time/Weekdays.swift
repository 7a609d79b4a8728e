/// A set of weekdays (a user's training days), as a bit set for the hot path.
public struct Weekdays: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }

    public static let monday = Weekdays(rawValue: 1 << 0)
    public static let tuesday = Weekdays(rawValue: 1 << 1)
    public static let wednesday = Weekdays(rawValue: 1 << 2)
    public static let thursday = Weekdays(rawValue: 1 << 3)
    public static let friday = Weekdays(rawValue: 1 << 4)
    public static let saturday = Weekdays(rawValue: 1 << 5)
    public static let sunday = Weekdays(rawValue: 1 << 6)
    public static let all = Weekdays(rawValue: 0x7F)

    /// The set holding one weekday, 1 = Monday … 7 = Sunday; empty for any other number.
    public init(weekday: Int) {
        self.init(rawValue: (1...7).contains(weekday) ? UInt8(1) << UInt8(weekday - 1) : 0)
    }

    /// The set of the given weekdays (1 = Monday … 7 = Sunday); other numbers are ignored.
    public init(weekdays: some Sequence<Int>) {
        var set = Weekdays()
        for day in weekdays { set.formUnion(Weekdays(weekday: day)) }
        self = set
    }

    /// Whether weekday `weekday` (1 = Monday … 7 = Sunday) is in the set.
    @inline(__always)
    public func contains(weekday: Int) -> Bool {
        (1...7).contains(weekday) && rawValue & (UInt8(1) << UInt8(weekday - 1)) != 0
    }
}
