#if Server
import HTTPTypes
public import Hummingbird

/// `Authorization: Bearer <token>` on every route but `/healthz` and `/readyz` (probes carry no
/// secret). A missing header is 401 `missing_token`, a wrong token 401 `invalid_token`.
public struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: BearerTokens

    static var openPaths: Set<String> { ["/healthz", "/readyz"] }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.openPaths.contains(request.uri.path) { return try await next(request, context) }
        guard let header = request.headers[.authorization] else {
            throw APIError(.unauthorized, code: "missing_token", message: "this server needs `Authorization: Bearer <token>`", field: "Authorization")
        }
        let prefix = "Bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix.lowercased(),
              tokens.accepts(header.dropFirst(prefix.count)) else {
            throw APIError(.unauthorized, code: "invalid_token", message: "the bearer token is not one this server accepts", field: "Authorization")
        }
        return try await next(request, context)
    }
}
#endif
