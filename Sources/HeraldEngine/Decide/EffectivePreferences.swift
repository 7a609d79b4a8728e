internal import HeraldPolicy

/// The user's effective scalar preferences: the request's, with the policy's `defaults`
/// filling what it leaves out. The toggles, training days and muted ids are read from the
/// request's `PreferencesInput` where they are (`trainingDays(_:)`, `categoryEnabled`, …), so
/// a decision copies none of its collections.
package struct EffectivePreferences: Sendable {
    let zone: Zone
    let pausedAll: Bool
    /// Seconds since local midnight.
    let reminderTime: Int
    /// nil: none.
    let quietHours: QuietHoursWindow?
    let maxPerDay: Int?
}
