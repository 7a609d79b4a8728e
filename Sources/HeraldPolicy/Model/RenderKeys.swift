// A closed family: the render-only keys of a category or type (`sound`, `actions`, `osChannel`,
// `relevance`, `payload`, `foreground`, docs/seeds.md P14, P23), a quick action, a payload
// field, a sound's condition and the foreground presentation, which exist only inside
// `RenderKeys`.
public import HeraldSyntax

/// What a device shows or carries besides the copy: keys that never decide anything and are
/// rendered into the decision's `notification` as written. A type's keys override its
/// category's, key by key (`over(_:)`).
public struct RenderKeys: Sendable, Hashable {
    /// The sound file (`score_update.caf`) or `default`.
    public var sound: String?
    /// The quick actions (iOS `UNNotificationAction`, Android action buttons), in order.
    public var actions: [QuickAction]?
    /// The Android notification channel id.
    public var osChannel: String?
    /// iOS `relevance-score`, 0 … 1.
    public var relevance: Double?
    /// Extra fields for the app, in declaration order; values are templates over the type's
    /// params (types only).
    public var payload: [PayloadField] = []
    /// `sound: { file, when }`: the sound plays only when this condition over `prefs.*` holds
    /// (a user's sound toggle); nil: always. It belongs to `sound` (a type's `sound` replaces
    /// its category's, condition and all).
    public var soundWhen: SoundCondition?
    /// How the app presents the notification while it is in the foreground (docs/seeds.md P23).
    public var foreground: ForegroundPresentation?

    public init(sound: String? = nil, actions: [QuickAction]? = nil, osChannel: String? = nil, relevance: Double? = nil,
                payload: [PayloadField] = [], soundWhen: SoundCondition? = nil, foreground: ForegroundPresentation? = nil) {
        self.sound = sound
        self.actions = actions
        self.osChannel = osChannel
        self.relevance = relevance
        self.payload = payload
        self.soundWhen = soundWhen
        self.foreground = foreground
    }

    /// No key is set.
    public var isEmpty: Bool {
        sound == nil && actions == nil && osChannel == nil && relevance == nil && payload.isEmpty && foreground == nil
    }

    /// These keys with each one left unset taken from `base` (a type over its category).
    public func over(_ base: RenderKeys) -> RenderKeys {
        RenderKeys(sound: sound ?? base.sound, actions: actions ?? base.actions, osChannel: osChannel ?? base.osChannel,
                   relevance: relevance ?? base.relevance, payload: payload.isEmpty ? base.payload : payload,
                   soundWhen: sound != nil ? soundWhen : base.soundWhen, foreground: foreground ?? base.foreground)
    }
}

/// The condition of `sound: { file, when }`: a `bool` expression over `prefs.*` (H0287 for
/// anything else). Compared by its text and place.
public struct SoundCondition: Sendable, Hashable {
    public var when: CompiledExpression

    public init(when: CompiledExpression) {
        self.when = when
    }

    public static func == (a: SoundCondition, b: SoundCondition) -> Bool {
        a.when.source == b.when.source && a.when.span == b.when.span
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(when.source)
        hasher.combine(when.span)
    }
}

/// `foreground:` — what the app shows when the notification arrives while it is open (iOS
/// `willPresent`, Android's in-app handler): an in-app `banner`, only the notification
/// center's `list`, or `none`. Rendered as `notification.foreground`; the app applies it.
public enum ForegroundPresentation: String, Sendable, Hashable, CaseIterable {
    case banner, list, none
}

/// One entry of `actions:`: an action button.
public struct QuickAction: Sendable, Hashable {
    /// What the app receives when it is tapped.
    public var id: String
    /// The button's label.
    public var title: String
    public var span: SourceSpan

    public init(id: String, title: String, span: SourceSpan) {
        self.id = id
        self.title = title
        self.span = span
    }
}

/// One entry of `payload:`: a key and its template.
public struct PayloadField: Sendable, Hashable {
    public var key: String
    public var value: MessageTemplate
    public var span: SourceSpan

    public init(key: String, value: MessageTemplate, span: SourceSpan) {
        self.key = key
        self.value = value
        self.span = span
    }
}
