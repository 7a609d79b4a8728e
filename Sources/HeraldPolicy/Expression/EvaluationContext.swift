/// What an expression reads at run time; the engine implements it.
///
/// Class-bound: compiled expressions take the context as `any EvaluationContext`, and a
/// class existential is a reference passed as it is, where any other would be copied into a
/// box (a reference count per evaluation on the decision hot path).
public protocol EvaluationContext: AnyObject {
    /// The value at a name path such as `["state", "maintenance", "dueToday"]`; nil if absent.
    func value(at path: [String]) -> Value?
    /// The value of a read the compiler resolved to `slot` (see `ExpressionEnvironment.slots`);
    /// `path` is the same name. The default reads `value(at: path)`.
    func value(slot: Int, path: [String]) -> Value?
    /// How many notifications of a type or category were sent in the window.
    func sent(_ target: String, within window: SentWindow) -> Int
    /// `sent(target, window, [statuses])`: like `sent(_:within:)`, counting only ledger entries
    /// whose status is one of `statuses` (`opened`, `dismissed`, …).
    func sent(_ target: String, within window: SentWindow, statuses: [String]) -> Int
    /// `sent(target, since(instant))`: the entries of a type or category delivering after
    /// `instant` (`instant < e`, those scheduled ahead included); with `statuses`, only entries
    /// whose status is one of them, else those `sent(_:within:)` counts.
    func sent(_ target: String, after instant: Int, statuses: [String]?) -> Int
    /// `localDate(t)`: the local date (days since 1970-01-01) of `instant` in the user's zone,
    /// the zone `local.date` is read in (docs/time.md § The local date of an instant). Every
    /// context says: there is no default, since a date in some other zone would be a wrong
    /// answer, not an absent one. nil: the context has no zone (the value is then absent).
    func localDate(of instant: Int) -> Int?
    /// The instant `since()` measures to: `now`, or the delivery instant for a type judged at
    /// delivery (`timing.judgedAt`). The default reads `value(at: ["now"])`.
    func sinceInstant() -> Value?
}

extension EvaluationContext {
    public func sinceInstant() -> Value? {
        value(at: ["now"])
    }

    public func value(slot: Int, path: [String]) -> Value? {
        value(at: path)
    }

    /// Contexts without a status-aware ledger count every entry `sent(_:within:)` counts.
    public func sent(_ target: String, within window: SentWindow, statuses: [String]) -> Int {
        sent(target, within: window)
    }
}

/// Built-in names an expression may read, bound to negative slots when a bundle compiles (the
/// declared `state`/`user` fields take the slots from 0 up). An engine answers them with a
/// switch on the slot instead of matching the path's names; a context that does not know a
/// slot reads `value(at: path)`, so the binding never changes a value.
public enum BuiltinRead: Int, CaseIterable, Sendable {
    case now = -1
    case triggerAt = -2
    case subject = -3
    case localDate = -4
    case localWeekday = -5
    case localTime = -6
    case prefsTimezone = -7
    case prefsPausedAll = -8
    case prefsReminderTime = -9
    case prefsMaxPerDay = -10
    case prefsQuietHoursStart = -11
    case prefsQuietHoursEnd = -12

    /// The name path the slot stands for.
    public var path: [String] {
        switch self {
        case .now: ["now"]
        case .triggerAt: ["trigger", "at"]
        case .subject: ["subject"]
        case .localDate: ["local", "date"]
        case .localWeekday: ["local", "weekday"]
        case .localTime: ["local", "time"]
        case .prefsTimezone: ["prefs", "timezone"]
        case .prefsPausedAll: ["prefs", "pausedAll"]
        case .prefsReminderTime: ["prefs", "reminderTime"]
        case .prefsMaxPerDay: ["prefs", "maxPerDay"]
        case .prefsQuietHoursStart: ["prefs", "quietHours", "start"]
        case .prefsQuietHoursEnd: ["prefs", "quietHours", "end"]
        }
    }
}
