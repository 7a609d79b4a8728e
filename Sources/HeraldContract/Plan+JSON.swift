public import HeraldEngine

extension Plan {
    /// `{ "decisions": [...], "batches": [...], "deliveries": [{ "key", "type", "deliverAt" }] }`.
    public func json() -> JSON {
        [
            "decisions": .array(decisions.map { $0.json() }),
            "batches": .array(batches.map { $0.json() }),
            "deliveries": .array(deliveries.map { d in
                ["key": .string(d.key ?? ""), "type": .string(d.type),
                 "deliverAt": .string(ContractTime.format(d.deliverAt ?? 0))]
            }),
        ]
    }
}
