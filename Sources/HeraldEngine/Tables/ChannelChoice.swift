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
    /// The category keeps this channel (`keepChannels`): its toggle being off does not stop it.
    let kept: Bool

    init(_ channel: Channel, categoryKey: String, categoryDefaultOn: Bool, kept: Bool = false) {
        name = channel.name
        permission = channel.permission
        toggle = channel.toggle
        defaultOn = channel.defaultOn
        self.categoryKey = categoryKey
        self.categoryDefaultOn = categoryDefaultOn
        self.kept = kept
    }
}
