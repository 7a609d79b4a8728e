import HeraldPolicy

/// A type's render-only keys resolved once (docs/seeds.md P14, P22): the type's keys over its
/// category's, literal payload values rendered, payload templates bound to the type's params,
/// and the category's per-channel labels. A type with none has no plan, and its decisions do
/// no work for them.
final class PresentationPlan: Sendable {
    /// What does not depend on the request: sound, actions, OS channel, relevance and the
    /// payload with its literal values (templated ones are filled per request).
    let fixed: Decision.Presentation
    /// Payload fields with placeholders: their index in `fixed.payload` and their template.
    let templates: [(index: Int, template: BoundTemplate)]
    /// The category's label on each channel that has its own.
    let channelTitles: [String: String]
    /// The category's `title`, the label on channels without their own.
    let categoryTitle: String
    /// `sound.when`: the sound plays only when it holds (evaluated per request).
    let soundWhen: CompiledExpression?

    /// nil when neither the type nor its category declares a render key or a channel label.
    init?(type: NotificationType, category: Category?) {
        let keys = type.render.over(category?.render ?? RenderKeys())
        let titles = category?.channelTitles ?? [:]
        guard !keys.isEmpty || !titles.isEmpty else { return nil }
        var payload: [(key: String, value: String)] = []
        var templates: [(index: Int, template: BoundTemplate)] = []
        for (index, field) in keys.payload.enumerated() {
            if let literal = field.value.literal {
                payload.append((field.key, literal))
            } else {
                payload.append((field.key, ""))
                templates.append((index, BoundTemplate(field.value, names: type.templateNames)))
            }
        }
        fixed = Decision.Presentation(sound: keys.sound, actions: keys.actions?.map { .init(id: $0.id, title: $0.title) },
                                      osChannel: keys.osChannel, relevance: keys.relevance, payload: payload,
                                      foreground: keys.foreground?.rawValue)
        soundWhen = keys.soundWhen?.when
        self.templates = templates
        channelTitles = titles
        categoryTitle = category?.title ?? ""
    }

    /// The payload needs the request (a template with placeholders).
    var isDynamic: Bool { !templates.isEmpty }

    /// The payload rendered for this request.
    func payload(_ context: RequestContext, localDate instant: Int) -> [(key: String, value: String)] {
        var payload = fixed.payload
        for (index, template) in templates {
            payload[index].value = template.render(context, localDate: instant)
        }
        return payload
    }

    /// The decision's presentation: the fixed keys, the payload, tab badges and a switched
    /// sound rendered for the request (`rendered`), and the category's label on `channel`.
    /// `quiet`: delivered quietly, without sound.
    func resolve(_ rendered: Decision.Presentation?, channel: String?, quiet: Bool = false) -> Decision.Presentation {
        var p = fixed
        if let rendered {
            if isDynamic { p.payload = rendered.payload }
            p.badges = rendered.badges
            p.batchParams = rendered.batchParams
        }
        if soundWhen != nil { p.sound = rendered?.sound }
        if quiet { p.sound = nil }
        if !channelTitles.isEmpty {
            p.categoryTitle = channel.flatMap { channelTitles[$0] } ?? categoryTitle
        }
        return p
    }
}
