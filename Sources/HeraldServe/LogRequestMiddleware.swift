#if Server
public import Hummingbird
import Logging

/// Logs each answered request with its status: a 5xx as a warning with its time, the rest at
/// debug. (Hummingbird's `LogRequestsMiddleware` logs a request before it is answered, so without
/// the status an operator filters on.) Sits outside `JSONErrorMiddleware`, so it sees every
/// error as the response the client got.
public struct LogRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let status = response.status.code
        if status >= 500 {
            let elapsed = ContinuousClock.now - started
            context.logger.warning("request failed", metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(status),
                "elapsed_ms": .stringConvertible(Double(elapsed.components.attoseconds / 1_000_000_000_000) / 1000
                                                 + Double(elapsed.components.seconds) * 1000),
            ])
        } else {
            context.logger.debug("request", metadata: [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "status": .stringConvertible(status),
            ])
        }
        return response
    }
}
#endif
