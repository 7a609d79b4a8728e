#if Server
import HTTPTypes

/// The server's routes as path patterns and methods (docs/serve.md, docs/openapi.yaml), so that a
/// request whose path names a route but whose method does not is answered 405 `method_not_allowed`
/// with an `Allow` header rather than Hummingbird's 404 (RFC 9110 §15.5.6). `RouteTableTests`
/// checks that every entry here is a route the router serves.
struct RouteTable: Sendable {
    struct Route: Sendable {
        var method: HTTPRequest.Method
        /// `/`-separated segments; `:name` matches any one segment.
        var path: String
    }

    static let served = RouteTable(routes: [
        Route(method: .get, path: "/healthz"),
        Route(method: .get, path: "/readyz"),
        Route(method: .get, path: "/metrics"),
        Route(method: .get, path: "/v1/policies"),
        Route(method: .post, path: "/v1/policies/:name/decide"),
        Route(method: .post, path: "/v1/policies/:name/plan"),
        Route(method: .post, path: "/v1/policies/:name/reconcile"),
        Route(method: .post, path: "/v1/policies/:name/prompt"),
        Route(method: .post, path: "/v1/policies/:name/explain"),
        Route(method: .post, path: "/v1/events"),
        Route(method: .get, path: "/v1/users/:id/ledger"),
        Route(method: .delete, path: "/v1/users/:id"),
    ])

    let routes: [Route]

    /// The methods of the routes whose pattern matches `path`, in table order without repeats;
    /// empty when no route has that path. A GET route allows HEAD too.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var methods: [HTTPRequest.Method] = []
        for route in routes where !methods.contains(route.method) {
            let pattern = route.path.split(separator: "/", omittingEmptySubsequences: true)
            guard pattern.count == segments.count else { continue }
            if zip(pattern, segments).allSatisfy({ $0.first == ":" || $0 == $1 }) {
                methods.append(route.method)
                // `HeadMiddleware` answers HEAD wherever GET is served.
                if route.method == .get { methods.append(.head) }
            }
        }
        return methods
    }
}
#endif
