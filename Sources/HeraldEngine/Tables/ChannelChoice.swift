import HeraldPolicy

/// A channel as the preferences stage chooses it: its master toggle and its category-channel
/// toggle (`category.channel`), resolved once per type.
final class ChannelChoice: Sendable {
    let name: String
    /// The OS must grant permission (push).
    let permission: Bool
    /// The channel has a master toggle in `prefs.channels`, on by default or not.
    let toggle: Bool
    let defaultOn: Bool
    let categoryKey: String
    let categoryDefaultOn: Bool

    init(_ channel: Channel, categoryKey: String, categoryDefaultOn: Bool) {
        name = channel.name
        permission = channel.permission
        toggle = channel.toggle
        defaultOn = channel.defaultOn
        self.categoryKey = categoryKey
        self.categoryDefaultOn = categoryDefaultOn
    }
}
