public import HeraldEngine

extension TraceStep {
    /// Writes `json()` compactly, member by member (no tree).
    func write(to writer: inout JSONWriter) {
        writer.objectStart()
        writer.member("detail", detail)
        writer.member("outcome", outcome.rawValue)
        writer.member("rule", rule)
        writer.member("source", source)
        writer.member("stage", stage.rawValue)
        writer.objectEnd()
    }

    /// The step as a contract object; absent fields are left out.
    public func json() -> JSON {
        // In byte order of the keys, the order `serialized()` writes (it then sorts nothing).
        var members: [JSON.Member] = []
        members.reserveCapacity(5)
        if let detail { members.append(JSON.Member("detail", .string(detail))) }
        members.append(JSON.Member("outcome", .string(outcome.rawValue)))
        if let rule { members.append(JSON.Member("rule", .string(rule))) }
        if let source { members.append(JSON.Member("source", .string(source))) }
        members.append(JSON.Member("stage", .string(stage.rawValue)))
        return .object(members)
    }
}
