#if Server
public import Hummingbird
import NIOCore
import NIOHTTP1

/// Turns every error thrown inside it into the `{"error": …}` JSON of `APIError`: a 4xx (a known
/// path asked with another method is 405 with `Allow`), a 503 for the store and timeouts; an
/// unexpected error is a 500 with no details, and is logged.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Self.errorResponse(error, request: request, context: context)
        }
    }

    static func errorResponse(_ error: any Error, request: Request, context: Context) -> Response {
        let apiError: APIError
        switch error {
        case let error as APIError:
            apiError = error
        case is NIOTooManyBytesError:
            apiError = .bodyTooLarge(limit: -1)
        case is HTTPParserError:
            // A client's mistake in the body's framing (a bad chunk size, a body cut short): 400.
            apiError = .malformedHTTP(error)
        case let error as HTTPError where error.status == .notFound:
            let allowed = RouteTable.served.methods(for: request.uri.path)
            apiError = allowed.isEmpty ? .notFound(request.uri.path) : .methodNotAllowed(request.method, path: request.uri.path, allow: allowed)
        case let error as HTTPError:
            apiError = APIError(error.status, code: error.status.code < 500 ? "bad_request" : "internal", message: error.body ?? error.status.reasonPhrase.lowercased())
        default:
            context.logger.error("unexpected error", metadata: ["error": .string(String(describing: error))])
            apiError = APIError(.internalServerError, code: "internal", message: "internal error; see the server log for request id")
        }
        return (try? apiError.response(from: request, context: context)) ?? Response(status: apiError.status)
    }
}
#endif
