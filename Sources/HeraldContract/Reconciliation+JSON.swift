public import HeraldEngine

extension Reconciliation {
    /// `{ "add": [decision…], "keep": [pending…], "update": [{ "key", "changed", "from", "to" }], "cancel": [pending…] }`.
    public func json() -> JSON {
        [
            "add": .array(add.map { $0.json() }),
            "keep": .array(keep.map { $0.json() }),
            "update": .array(update.map { u in
                ["key": .string(u.pending.key), "changed": .array(u.changed.map(JSON.string)),
                 "from": u.pending.json(), "to": u.decision.json()]
            }),
            "cancel": .array(cancel.map { $0.json() }),
        ]
    }
}

extension PendingEntry {
    /// The entry as a contract object (the shape a reconcile request's `pending` takes).
    public func json() -> JSON {
        var members = [JSON.Member("key", .string(key)), JSON.Member("type", .string(type)),
                       JSON.Member("deliverAt", .string(ContractTime.format(deliverAt)))]
        let optional: [(String, String?)] = [("subject", subject), ("channel", channel), ("batch", batchKey),
                                             ("title", title), ("body", body), ("link", link), ("threadId", threadId)]
        for (name, value) in optional { if let value { members.append(JSON.Member(name, .string(value))) } }
        return .object(members)
    }
}
