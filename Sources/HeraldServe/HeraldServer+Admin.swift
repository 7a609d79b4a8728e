#if Server
import HeraldContract
import HeraldEngine
import HTTPTypes
import Hummingbird
import NIOCore

extension HeraldServer {
    /// `GET /healthz`, `/readyz`, `/metrics`, `/v1/policies`.
    func addAdminRoutes(to router: Router<ServeRequestContext>) {
        Self.get("/healthz", on: router) { _, _ in
            Self.json(["status": "ok"])
        }
        Self.get("/readyz", on: router) { _, _ in
            try await readiness()
        }
        Self.get("/metrics", on: router) { _, _ in
            var buffer = ByteBuffer()
            buffer.writeBytes(metrics.render())
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: buffer))
        }
        Self.get("/v1/policies", on: router) { _, _ in
            Self.json(["policies": .array(registry.policies.map(\.json))])
        }
    }

    /// 200 when every policy has a good compile and the store answers; 503 naming what is not
    /// ready otherwise.
    func readiness() async throws -> Response {
        var problems: [JSON] = []
        for policy in registry.policies where policy.engine == nil {
            problems.append(.string("policy `\(policy.name)` has no good compile"))
        }
        if let problem = await storeProblem() {
            problems.append(.string(problem))
        }
        if problems.isEmpty { return Self.json(["status": "ready"]) }
        var response = Self.json(["status": "not_ready", "problems": .array(problems)], status: .serviceUnavailable)
        response.headers[.retryAfter] = String(configuration.retryAfterSeconds)
        return response
    }
}
#endif
