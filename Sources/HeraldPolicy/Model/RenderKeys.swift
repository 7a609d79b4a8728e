// A closed family: the render-only keys of a category or type (`sound`, `actions`, `osChannel`,
// `relevance`, `payload`, docs/seeds.md P14), a quick action and a payload field, which exist
// only inside `RenderKeys`.
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

    public init(sound: String? = nil, actions: [QuickAction]? = nil, osChannel: String? = nil, relevance: Double? = nil,
                payload: [PayloadField] = []) {
        self.sound = sound
        self.actions = actions
        self.osChannel = osChannel
        self.relevance = relevance
        self.payload = payload
    }

    /// No key is set.
    public var isEmpty: Bool {
        sound == nil && actions == nil && osChannel == nil && relevance == nil && payload.isEmpty
    }

    /// These keys with each one left unset taken from `base` (a type over its category).
    public func over(_ base: RenderKeys) -> RenderKeys {
        RenderKeys(sound: sound ?? base.sound, actions: actions ?? base.actions, osChannel: osChannel ?? base.osChannel,
                   relevance: relevance ?? base.relevance, payload: payload.isEmpty ? base.payload : payload)
    }
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
