// A closed family: what a notification carries besides its copy (`Decision.Presentation`, with
// its quick actions and named values) and the box a notification keeps it in.
public import HeraldPolicy

extension Decision {
    /// The render-only keys of a notification (docs/seeds.md P14, P22, P24): the sound, quick
    /// actions, Android channel id, relevance and payload of its type (over its category's),
    /// the category's label on the chosen channel, and the badge of each app tab. Rendered
    /// only for types and catalogs that declare some; nil otherwise.
    public struct Presentation: Sendable, Equatable {
        /// A quick action: what the app receives and the button's label.
        public struct Action: Sendable, Equatable {
            public var id: String
            public var title: String

            public init(id: String, title: String) {
                self.id = id
                self.title = title
            }
        }

        public var sound: String?
        public var actions: [Action]?
        /// The Android notification channel id.
        public var osChannel: String?
        /// iOS `relevance-score`, 0 … 1.
        public var relevance: Double?
        /// The payload's fields, in declaration order.
        public var payload: [(key: String, value: String)]
        /// The category's label on the decision's channel (a category with per-channel titles).
        public var categoryTitle: String?
        /// Each app tab's badge, in declaration order (`badge.tabs`).
        public var badges: [(tab: String, count: Int)]
        /// How the app presents it while in the foreground: `banner`, `list` or `none`.
        public var foreground: String?
        /// The params of this notification that a batch group's or digest's copy names as
        /// `{first.<param>}`, in the group's order (absent optional ones left out): a flush whose
        /// first member this is shows them (docs/decisions.md § Batches and digests).
        public var batchParams: [(name: String, value: Value)] = []

        public init(sound: String? = nil, actions: [Action]? = nil, osChannel: String? = nil, relevance: Double? = nil,
                    payload: [(key: String, value: String)] = [], categoryTitle: String? = nil,
                    badges: [(tab: String, count: Int)] = [], foreground: String? = nil) {
            self.foreground = foreground
            self.sound = sound
            self.actions = actions
            self.osChannel = osChannel
            self.relevance = relevance
            self.payload = payload
            self.categoryTitle = categoryTitle
            self.badges = badges
        }

        public static func == (a: Presentation, b: Presentation) -> Bool {
            a.sound == b.sound && a.actions == b.actions && a.osChannel == b.osChannel && a.relevance == b.relevance
                && a.payload.elementsEqual(b.payload, by: ==) && a.categoryTitle == b.categoryTitle
                && a.badges.elementsEqual(b.badges, by: ==) && a.foreground == b.foreground
                && a.batchParams.elementsEqual(b.batchParams, by: ==)
        }
    }
}

/// A notification's presentation behind one reference: a notification without one (most) pays
/// one nil pointer for it, not a struct of optionals.
final class PresentationBox: Sendable, Equatable {
    let value: Decision.Presentation

    init(_ value: Decision.Presentation) {
        self.value = value
    }

    static func == (a: PresentationBox, b: PresentationBox) -> Bool { a === b || a.value == b.value }
}
