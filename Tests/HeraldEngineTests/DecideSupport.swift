import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy

/// Loads test bundles and builds requests for the decide tests.
enum DecideSupport {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String {
        repositoryRoot.appendingPathComponent(relative).path
    }

    nonisolated(unsafe) private static var cache: [String: Engine] = [:]
    private static let lock = NSLock()

    /// The engine for `Tests/Fixtures/engine/<name>` (or any repository-relative directory).
    static func engine(_ name: String = "basic") -> Engine {
        lock.lock()
        defer { lock.unlock() }
        if let engine = cache[name] { return engine }
        // Relative to the repository when the tests run there (`swift test`), so citations
        // read `catalog/handz/types.yaml:32:5` as in docs/examples.
        let relative = name.contains("/") ? name : "Tests/Fixtures/engine/\(name)"
        let atRoot = FileManager.default.currentDirectoryPath == repositoryRoot.path
        let directory = atRoot ? relative : path(relative)
        let result = Validator.validate(directory)
        guard let bundle = result.bundle else {
            fatalError("test bundle \(name) does not validate:\n\(result.diagnostics.items.map(\.description).joined(separator: "\n"))")
        }
        let engine = Engine(bundle: bundle)
        cache[name] = engine
        return engine
    }

    static let t0 = "2026-03-10T12:00:00Z"  // a Tuesday

    static func request(
        _ type: String, at: String = t0, now: String? = nil,
        user: JSON = ["id": "u1", "account": true, "premium": false],
        prefs: JSON? = nil, permission: String? = nil,
        state: JSON = ["streak": 3, "unread": 2],
        params: JSON = [:], subject: String? = nil, history: [JSON] = []
    ) -> DecisionRequest {
        var members: [JSON.Member] = [
            .init("type", .string(type)), .init("at", .string(at)), .init("now", .string(now ?? at)),
            .init("user", user), .init("state", state), .init("params", params),
            .init("history", .array(history)),
        ]
        if let prefs { members.append(.init("prefs", prefs)) }
        if let permission { members.append(.init("permission", .string(permission))) }
        if let subject { members.append(.init("subject", .string(subject))) }
        do {
            return try DecisionRequest(json: .object(members))
        } catch {
            fatalError("bad test request: \(error)")
        }
    }

    static func entry(_ type: String, key: String? = nil, at: String, status: String = "delivered",
                      subject: String? = nil, channel: String? = nil, batch: String? = nil) -> JSON {
        var members: [JSON.Member] = [
            .init("type", .string(type)), .init("key", .string(key ?? "\(type):\(at)")),
            .init("deliverAt", .string(at)), .init("status", .string(status)),
        ]
        if let subject { members.append(.init("subject", .string(subject))) }
        if let channel { members.append(.init("channel", .string(channel))) }
        if let batch { members.append(.init("batch", .string(batch))) }
        return .object(members)
    }

    static func decide(_ request: DecisionRequest, engine: Engine = engine()) -> Decision {
        switch engine.decide(request, now: request.now) {
        case .success(let decision): return decision
        case .failure(let errors): fatalError("request errors: \(errors)")
        }
    }

    static func instant(_ text: String) -> Int { RFC3339.parse(text)! }
}

extension Engine {
    /// Test shorthand: a plan of decide requests that share one user (the first one's user half,
    /// each one's trigger), as a plan request says it.
    func plan(_ requests: [DecisionRequest], now: Int, horizon: Int?) -> Result<Plan, RequestErrors> {
        let user = requests.first?.userRequest ?? UserRequest(user: ["id": "u1"])
        precondition(requests.allSatisfy { $0.userRequest == user }, "a plan's candidates share one user")
        let candidates = requests.map { CandidateRequest(type: $0.type, at: $0.at, params: $0.params, subject: $0.subject) }
        return plan(PlanRequest(user: user, candidates: candidates, now: now, horizon: horizon))
    }
}
