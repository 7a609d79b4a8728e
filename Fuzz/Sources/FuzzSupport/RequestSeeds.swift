import HeraldContract

extension Seeds {
    /// A request made of a decide request's fields: the route it is sent to (`plan`,
    /// `reconcile`, `prompt`) and its JSON.
    public struct Request {
        public var route: String
        public var body: [UInt8]
    }

    /// The plan, reconcile and prompt requests made of one decide request's fields: the
    /// candidate is its `type`, `at`, `params` and `subject`, the user side the rest; the
    /// reconcile has nothing pending, the prompt no candidate.
    public static func requests(madeOf decide: [UInt8]) -> [Request] {
        guard let json = try? JSON.parse(String(decoding: decide, as: UTF8.self)), let members = json.members else { return [] }
        let candidateKeys: Set<String> = ["type", "at", "params", "subject"]
        let user = members.filter { ["user", "prefs", "permission", "state", "history"].contains($0.key) }
        let now = members.filter { $0.key == "now" }
        let candidate = JSON.object(members.filter { candidateKeys.contains($0.key) })
        let plan = JSON.object(now + user + [JSON.Member("candidates", .array([candidate]))])
        let reconcile = JSON.object(now + user + [JSON.Member("candidates", .array([candidate])), JSON.Member("pending", .array([]))])
        return [
            Request(route: "plan", body: Array(plan.serialized().utf8)),
            Request(route: "reconcile", body: Array(reconcile.serialized().utf8)),
            Request(route: "prompt", body: Array(JSON.object(now + user).serialized().utf8)),
        ]
    }
}
