public import HeraldEngine

extension Decision {
    /// The decision in the contract's shape. Absent values are left out rather than written
    /// as `null`; `deliverAt`/`localDeliverAt` appear only for `schedule` and `batch`.
    public func json() -> JSON {
        var members: [JSON.Member] = []
        func put(_ key: String, _ value: JSON?) {
            if let value { members.append(JSON.Member(key, value)) }
        }
        // Members are put in byte order of their keys, the order `serialized()` writes, so the
        // writer finds them sorted and sorts nothing (a unit test checks the order).
        let scheduled = action != .suppress ? deliverAt : nil
        members.reserveCapacity(16)
        put("action", .string(action.rawValue))
        put("batch", batch.map { batch in
            ["flushAt": .string(ContractTime.format(batch.flushAt)), "group": .string(batch.group), "key": .string(batch.key)]
        })
        put("cap", cap.map(JSON.string))
        put("category", category.map(JSON.string))
        put("channel", channel.map(JSON.string))
        put("deliverAt", scheduled.map { .string(ContractTime.format($0)) })
        put("fallback", fallback.map(JSON.string))
        put("key", key.map(JSON.string))
        put("localDeliverAt", scheduled.map { .string(ContractTime.format($0, offsetSeconds: utcOffset)) })
        put("notification", notification.map(Self.json(of:)))
        put("policy", ["digest": .string(policy.digest), "name": .string(policy.name)])
        put("reason", .string(reason))
        put("rule", rule.map { ["id": .string($0.id), "source": .string($0.source)] })
        if action != .suppress { put("subject", subject.map(JSON.string)) }
        put("trace", .array(trace.map { $0.json() }))
        put("type", .string(type))
        return .object(members)
    }

    /// `json().serialized()`, written member by member without building the tree: the same
    /// bytes (tests compare the two over every seed bundle's scenarios) at a fraction of the
    /// allocations, for a response on a request's hot path.
    public func compactJSON() -> String {
        var writer = JSONWriter(pretty: false, capacity: 1_024)
        write(to: &writer)
        return writer.text
    }

    /// Writes `json()` compactly, member by member, in the byte order of the keys.
    func write(to w: inout JSONWriter) {
        let scheduled = action != .suppress ? deliverAt : nil
        w.objectStart()
        w.member("action", action.rawValue)
        if let batch {
            w.key("batch")
            w.objectStart()
            w.member("flushAt", ContractTime.format(batch.flushAt))
            w.member("group", batch.group)
            w.member("key", batch.key)
            w.objectEnd()
        }
        w.member("cap", cap)
        w.member("category", category)
        w.member("channel", channel)
        w.member("deliverAt", scheduled.map { ContractTime.format($0) })
        w.member("fallback", fallback)
        w.member("key", key)
        w.member("localDeliverAt", scheduled.map { ContractTime.format($0, offsetSeconds: utcOffset) })
        if let notification {
            w.key("notification")
            w.value(Self.json(of: notification))
        }
        w.key("policy")
        w.objectStart()
        w.member("digest", policy.digest)
        w.member("name", policy.name)
        w.objectEnd()
        w.member("reason", reason)
        if let rule {
            w.key("rule")
            w.objectStart()
            w.member("id", rule.id)
            w.member("source", rule.source)
            w.objectEnd()
        }
        if action != .suppress { w.member("subject", subject) }
        w.key("trace")
        w.arrayStart()
        for step in trace { step.write(to: &w) }
        w.arrayEnd()
        w.member("type", type)
        w.objectEnd()
    }

    static func json(of notification: Decision.Notification) -> JSON {
        var members: [JSON.Member] = []
        func put(_ key: String, _ value: String?) {
            if let value { members.append(JSON.Member(key, .string(value))) }
        }
        // In byte order of the keys, as `serialized()` writes them; a presentation's members
        // follow, and only then does the writer sort.
        if let badge = notification.badge { members.append(JSON.Member("badge", .int(badge))) }
        put("body", notification.body)
        put("interruptionLevel", notification.interruptionLevel)
        put("link", notification.link)
        put("lockscreen", notification.lockscreen)
        put("subtitle", notification.subtitle)
        put("threadId", notification.threadId)
        put("title", notification.title)
        if let presentation = notification.presentation { members += presentation.jsonMembers() }
        return .object(members)
    }
}
