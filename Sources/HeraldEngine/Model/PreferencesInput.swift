public import HeraldPolicy

/// The user's preferences as the request states them (`prefs`). Every field is optional:
/// what the request leaves out takes the policy's `defaults`.
public struct PreferencesInput: Sendable, Equatable {
    /// Quiet hours as the request states them; `nil` in `PreferencesInput.quietHours` means
    /// "not stated" (use the policy default), `.off` means the user has none.
    public enum QuietHours: Sendable, Equatable {
        /// The request said `"quietHours": null`.
        case off
        /// `[start, end)` in local wall-clock seconds after midnight; may cross midnight.
        case window(start: Int, end: Int)
    }

    /// IANA zone name (`Europe/Berlin`); validated by the engine's time module.
    public var timezone: String?
    public var pausedAll: Bool?
    /// Category toggles by name (also `"<category>.<channel>"` keys); unstated ones default.
    public var categories: [String: Bool]
    /// Channel master toggles by name.
    public var channels: [String: Bool]
    /// Per-type toggles by type id (`prefs.types.<id>` in the language).
    public var types: [String: Bool]
    public var quietHours: QuietHours?
    /// Local wall-clock seconds after midnight (`"19:00"` → 68400).
    public var reminderTime: Int?
    /// ISO weekday numbers, 1 = Monday … 7 = Sunday, ascending and without repeats.
    public var trainingDays: [Int]?
    public var maxPerDay: Int?
    /// Muted ids (contacts, subjects) as given.
    public var muted: [String]?
    /// The catalog's declared preferences (`prefs:` in the catalog) as given, by name: every
    /// field of the request's `prefs` that is not built in. The engine checks them against the
    /// declarations (unknown name, type, `allowed`); unstated ones take the declared default.
    public var app: [String: Value] = [:]

    public init(
        timezone: String? = nil, pausedAll: Bool? = nil, categories: [String: Bool] = [:],
        channels: [String: Bool] = [:], types: [String: Bool] = [:], quietHours: QuietHours? = nil,
        reminderTime: Int? = nil, trainingDays: [Int]? = nil, maxPerDay: Int? = nil, muted: [String]? = nil,
        app: [String: Value] = [:]
    ) {
        self.app = app
        self.timezone = timezone
        self.pausedAll = pausedAll
        self.categories = categories
        self.channels = channels
        self.types = types
        self.quietHours = quietHours
        self.reminderTime = reminderTime
        self.trainingDays = trainingDays
        self.maxPerDay = maxPerDay
        self.muted = muted
    }

    /// Weekday names of the contract, indexed by ISO number − 1.
    public static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
