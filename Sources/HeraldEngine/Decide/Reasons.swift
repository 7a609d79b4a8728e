/// Why a scheduled notification goes out when it does. The raw values are the contract's
/// reason codes (docs/decisions.md); the stages compare cases, never strings.
enum ScheduleReason: String, Sendable {
    case onTime = "on_time"
    case reminderTime = "reminder_time"
    case localTime = "local_time"
    case trainingDay = "training_day"
    case quietHours = "quiet_hours"
    /// Delivered inside quiet hours, quietly (`quietHours.during: passive`).
    case quietHoursPassive = "quiet_hours_passive"
    case burstSpacing = "burst_spacing"
}

/// Why a verdict suppresses (or batches) a notification: the built-in reasons, and the
/// reason a suppression rule of the catalog declares. `code(in:)` is the contract's string.
enum VerdictReason: Sendable, Equatable {
    case missingData, ineligible, pausedAll, categoryOff, typeOff, channelOff, systemDenied
    case duplicate, quietHours, expired, missed, cooldown, rateLimited, batched
    /// The reason of suppression rule `index` of the type's table (`TypeTable.suppressReasons`).
    case suppressRule(Int)
    /// The reason of back-off `index` of the type's table (`TypeTable.backoffs`).
    case backoff(Int)

    /// The reason code as decisions carry it.
    func code(in table: TypeTable) -> String {
        switch self {
        case .missingData: "missing_data"
        case .ineligible: "ineligible"
        case .pausedAll: "paused_all"
        case .categoryOff: "category_off"
        case .typeOff: "type_off"
        case .channelOff: "channel_off"
        case .systemDenied: "system_denied"
        case .duplicate: "duplicate"
        case .quietHours: "quiet_hours"
        case .expired: "expired"
        case .missed: "missed"
        case .cooldown: "cooldown"
        case .rateLimited: "rate_limited"
        case .batched: "batched"
        case .suppressRule(let index): table.suppressReasons[index]
        case .backoff(let index): table.backoffs[index].backoff.reason
        }
    }
}
