import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// A template value by name: `type`, `subject` (the user id when there is none),
    /// `localDate` (the local date of `instant`, when given), else a param or computed value
    /// that is present.
    /// Looked up as a template asks, so rendering builds no dictionary.
    func renderValue(_ name: String, context: RequestContext, localDate instant: Int?) -> Value? {
        BoundTemplate.Source(name, paramSlot: context.table.templateSlot).value(context, localDate: instant)
    }

    /// A link's URL: its route's template with the bindings rendered and percent-encoded.
    func renderLink(_ link: Link?, values: [String: Value]) -> String? {
        renderLink(link) { values[$0] }
    }

    /// A link's URL, with template values looked up by name.
    func renderLink(_ link: Link?, values: (String) -> Value?) -> String? {
        guard let link else { return nil }
        guard let url = bundle.routes[link.route]?.url else { return nil }
        return Self.renderLink(link, url: url, values: values)
    }

    /// A link's URL through its route's compiled `url`: each route param takes its binding,
    /// rendered and percent-encoded.
    /// `offset`: the user's UTC offset at an instant, for `{x, time}`/`{x, date}` bindings.
    static func renderLink(_ link: Link, url: RouteTemplate, values: (String) -> Value?,
                           offset: (Int) -> Int = { _ in 0 }) -> String {
        url.render { param in
            link.bindings.first { $0.param == param }?.value.render(values, offset: offset)
        }
    }

    /// The badge: the catalog's expression when every field it needs is present.
    func badge(_ context: RequestContext) -> Int? {
        guard let badge = core.badgeEval else { return nil }
        for read in core.badgeReads where context.value(read) == nil { return nil }
        if case .int(let n) = badge.evaluate(context) { return n }
        return nil
    }

    /// Each tab's badge (`badge.tabs`) whose fields are all present, in declaration order.
    func tabBadges(_ context: RequestContext) -> [(tab: String, count: Int)] {
        var badges: [(tab: String, count: Int)] = []
        tabs: for tab in core.badgeTabs {
            for read in tab.reads where context.value(read) == nil { continue tabs }
            if case .int(let n) = tab.eval.evaluate(context) { badges.append((tab.name, n)) }
        }
        return badges
    }
}

/// A template with each placeholder bound to where a decision finds its value, once per
/// type: rendering looks values up by index, never by name. A class, so that a decision
/// reads its type's templates where the table keeps them.
final class BoundTemplate: Sendable {
    /// Where a placeholder's value comes from (the names `Engine.renderValue` answers).
    enum Source: Sendable {
        case type, subject, localDate
        case param(Int)
        /// Not a built-in nor a declared param: renders as empty text.
        case absent
    }

    let template: MessageTemplate
    let sources: [Source]
    /// No placeholder: the text is the template's own (`template.literal`).
    let isLiteral: Bool

    /// `names`: the type's params then its computed values, in slot order (`templateNames`).
    init(_ template: MessageTemplate, names: [String]) {
        self.template = template
        isLiteral = template.literal != nil
        sources = template.placeholders.map { name in
            Source(name) { param in names.firstIndex(of: param) }
        }
    }

    /// The rendered text; `localDate` is the local date of `instant`, when given.
    func render(_ context: RequestContext, localDate instant: Int?) -> String {
        template.render(byIndex: { sources[$0].value(context, localDate: instant) },
                        offset: { context.prefs.zone.offset(at: $0) })
    }
}

extension BoundTemplate.Source {
    /// Where the value named `name` comes from: a built-in, else the param `paramSlot` finds.
    init(_ name: String, paramSlot: (String) -> Int?) {
        switch name {
        case "type": self = .type
        case "subject": self = .subject
        case "localDate": self = .localDate
        default: self = paramSlot(name).map(Self.param) ?? .absent
        }
    }

    /// The value for one decision: `localDate` is the local date of `instant`, when given.
    func value(_ context: RequestContext, localDate instant: Int?) -> Value? {
        switch self {
        case .type: return .string(context.table.type.id)
        case .subject: return .string(context.subject ?? context.userID)
        case .localDate:
            guard let instant else { return nil }
            return .string(CivilDate(days: context.prefs.zone.localDate(of: instant)).description)
        case .param(let slot): return context.param(slot)
        case .absent: return nil
        }
    }
}

extension DecisionRun {
    /// The idempotency key: the type's own template (or its dedupe key), else
    /// `{type}:{subject}:{localDate}` with the local date of delivery.
    /// Keys depend on the instant only through its local date, so the key the dedupe stage
    /// built is reused when delivery stays on that date.
    mutating func idempotencyKey(at instant: Int) -> String {
        let date = zone.localDate(of: instant)
        if keyDate == date { return cachedKey }
        cachedKey = buildKey(at: instant, localDate: date)
        // `delivery: all`: each channel has its own key (docs/decisions.md, Several channels).
        if onlyChannel >= 0 { cachedKey += ":" + table.channelChoices[Int(onlyChannel)].name }
        keyDate = date
        return cachedKey
    }

    /// The key for delivery at `instant`, whose local date is `days`.
    private mutating func buildKey(at instant: Int, localDate days: Int) -> String {
        if let parts = table.contentKeyParts { return contentKey(parts, at: instant) }
        if let template = table.keyTemplate {
            return template.render(context, localDate: instant)
        }
        return borrowing { table, context in
            Self.defaultKey(type: table.type.id, subject: context.subject ?? context.userID, days: days)
        }
    }

    /// `dedupe.by: content`: `{type}:` and the FNV-1a 64 fingerprint of the rendered title,
    /// subtitle, body and link, each followed by a unit separator (docs/decisions.md).
    private func contentKey(_ parts: [BoundTemplate?], at instant: Int) -> String {
        var chunks: [[UInt8]] = []
        for part in parts {
            chunks.append(Array((part?.render(context, localDate: instant) ?? "").utf8))
            chunks.append([0x1F])
        }
        if let link = table.type.link, let url = table.linkURL {
            let engine = engine, context = context
            chunks.append(Array(Engine.renderLink(link, url: url) { engine.renderValue($0, context: context, localDate: instant) }.utf8))
        }
        return table.type.id + ":" + PolicyBundle.fnv1a64(chunks)
    }

    /// `{type}:{subject}:{localDate}` written into one string: the date's digits go straight
    /// into the key (no date string of its own).
    static func defaultKey(type: String, subject: String, days: Int) -> String {
        let date = CivilDate(days: days)
        guard (0 ... 9999).contains(date.year) else {
            return TextBuffer.join(type, subject, date.description, separator: UInt8(ascii: ":"))
        }
        var type = type, subject = subject
        return type.withUTF8 { t in
            subject.withUTF8 { s in
                String(unsafeUninitializedCapacity: t.count + s.count + 12) { out in
                    let base = out.baseAddress!
                    if let from = t.baseAddress { base.initialize(from: from, count: t.count) }
                    var i = t.count
                    base[i] = UInt8(ascii: ":")
                    i += 1
                    if let from = s.baseAddress { (base + i).initialize(from: from, count: s.count) }
                    i += s.count
                    base[i] = UInt8(ascii: ":")
                    CivilDate.writeISO(year: date.year, month: date.month, day: date.day, into: base + i + 1)
                    return i + 11
                }
            }
        }
    }

    /// What the device shows for this type that depends on the request, rendered into
    /// `notification`: copy from templates with placeholders, a link with request bindings,
    /// and the badge. The rest (literal copy, a static link, a literal or absent thread id,
    /// the interruption level) the decision reads from the table (`EngineFields`).
    mutating func render(into notification: inout Decision.Notification) {
        let instant = deliverAt
        if table.staticLink == nil, let typeLink = table.type.link, let url = table.linkURL {
            let engine = engine, context = context
            notification.link = Engine.renderLink(typeLink, url: url,
                                                  values: { engine.renderValue($0, context: context, localDate: instant) },
                                                  offset: { context.prefs.zone.offset(at: $0) })
        }
        notification.title = dynamic(table.copyTitle, at: instant)
        notification.subtitle = dynamic(table.copySubtitle, at: instant)
        notification.body = dynamic(table.copyBody, at: instant)
        notification.lockscreen = dynamic(table.copyLockscreen, at: instant)
        notification.threadId = dynamic(table.threadIdTemplate, at: instant)
        notification.badge = engine.badge(context)
        if table.rendersPresentation { renderPresentation(into: &notification, at: instant) }
        // Quiet delivery (docs/decisions.md, Quiet delivery): inside quiet hours with `during:
        // passive`, or on a provisional permission with `provisional: passive` (no badge either).
        // A rendered interruption level tells the decision to drop the sound.
        if deliversQuietly { notification.interruptionLevel = Interruption.passive.rawValue }
        if table.provisionalPassive, context.permission == .provisional, channel?.permission ?? false {
            notification.interruptionLevel = Interruption.passive.rawValue
            notification.badge = nil
        }
    }

    /// The parts of the presentation that depend on the request: the payload's templates and
    /// the tab badges; with tabs and no `badge.total`, the badge is their sum when every tab
    /// could be counted (docs/decisions.md, Presentation).
    private func renderPresentation(into notification: inout Decision.Notification, at instant: Int) {
        var p = Decision.Presentation()
        if let plan = table.presentation {
            if plan.isDynamic { p.payload = plan.payload(context, localDate: instant) }
            if let when = plan.soundWhen { p.sound = when.evaluateBool(context) ? plan.fixed.sound : nil }
        }
        // The params a group's copy names as `{first.<param>}`, present ones only (P11).
        for (name, slot) in table.batchParams {
            if let value = context.param(slot) { p.batchParams.append((name, value)) }
        }
        if !engine.core.badgeTabs.isEmpty {
            p.badges = engine.tabBadges(context)
            if engine.core.badgeEval == nil, p.badges.count == engine.core.badgeTabs.count {
                notification.badge = p.badges.reduce(0) { $0 + $1.count }
            }
        }
        notification.presentation = p
    }

    /// A template of the type rendered for this request; nil when it has no placeholder (the
    /// decision reads its text from the table) or there is none.
    @inline(__always)
    private func dynamic(_ template: BoundTemplate?, at instant: Int) -> String? {
        guard let template, !template.isLiteral else { return nil }
        return template.render(context, localDate: instant)
    }
}
