import HeraldPolicy

/// A request's converted inputs, kept for the next request (`decideOne(_:ledger:now:reuse:)`):
/// each part is reused only when that request's input is equal to the one it came from.
struct RequestConversions {
    /// `prefs` came from `prefsInput`.
    var hasPrefs = false
    var prefsInput = PreferencesInput()
    var prefs = EffectivePreferences(zone: .utc, pausedAll: false, reminderTime: 0, quietHours: nil, maxPerDay: nil)
    /// `fields` (indexed like `Engine.fields`, `.null`: absent) and `userID` came from `state`
    /// and `user`.
    var hasFields = false
    var state = JSON.null
    var user = JSON.null
    var userID = ""
    var fields: [Value] = []
}
