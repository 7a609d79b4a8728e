import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// Template values: the params present, `type`, `subject` (the user id when there is
    /// none) and, when given, `localDate`.
    func renderValues(_ context: RequestContext, localDate: String? = nil) -> [String: Value] {
        var values: [String: Value] = [:]
        for (index, param) in context.table.type.params.enumerated() {
            if let v = context.paramValues[index] { values[param.name] = v }
        }
        values["type"] = .string(context.table.type.id)
        values["subject"] = .string(context.subject ?? context.request.userID)
        if let localDate { values["localDate"] = .string(localDate) }
        return values
    }

    /// A link's URL: its route's template with the bindings rendered and percent-encoded.
    func renderLink(_ link: Link?, values: [String: Value]) -> String? {
        guard let link, let url = bundle.routes[link.route]?.url else { return nil }
        var params: [String: String] = [:]
        for binding in link.bindings { params[binding.param] = binding.value.render(values) }
        return url.render(params)
    }

    /// The badge: the catalog's expression when every field it needs is present.
    func badge(_ context: RequestContext) -> Int? {
        guard let badge = bundle.badge, badge.requiredPaths.allSatisfy({ context.value(at: $0) != nil }) else { return nil }
        if case .int(let n) = badge.evaluate(context) { return n }
        return nil
    }
}

extension DecisionRun {
    func renderValues(localDate instant: Int? = nil) -> [String: Value] {
        engine.renderValues(context, localDate: instant.map { CivilDate(days: zone.localDate(of: $0)).description })
    }

    /// The idempotency key: the type's own template (or its dedupe key), else
    /// `{type}:{subject}:{localDate}` with the local date of delivery.
    func idempotencyKey(at instant: Int) -> String {
        let values = renderValues(localDate: instant)
        if let template = type.idempotencyKey ?? type.dedupe?.key { return template.render(values) }
        let subject = context.subject ?? request.userID
        return "\(type.id):\(subject):\(CivilDate(days: zone.localDate(of: instant)))"
    }

    /// What the device shows for this type.
    func render() -> Decision.Notification {
        let values = renderValues(localDate: deliverAt)
        var n = Decision.Notification()
        if !type.silent, let copy = type.copy {
            n.title = copy.title?.render(values)
            n.subtitle = copy.subtitle?.render(values)
            n.body = copy.body?.render(values)
            n.lockscreen = copy.lockscreen?.render(values)
        }
        n.link = engine.renderLink(type.link, values: values)
        n.threadId = (type.threadId ?? table.category?.threadId)?.render(values) ?? type.category
        let level = type.silent ? .passive : (type.interruption ?? table.category?.interruption ?? .active)
        n.interruptionLevel = level.rawValue
        n.badge = engine.badge(context)
        return n
    }
}
