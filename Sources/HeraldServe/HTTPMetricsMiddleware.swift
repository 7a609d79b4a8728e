#if Server
public import Hummingbird

/// Counts each answer in `herald_http_requests_total{route, status}` (the matched route's
/// pattern, `unmatched` for none). Hummingbird's `MetricsMiddleware` reports to the process-wide
/// `MetricsSystem`; this one to the server's own `ServeMetrics`, so that several servers (and
/// tests) in one process keep their counts apart. Sits outside `JSONErrorMiddleware`.
public struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServeMetrics

    public init(metrics: ServeMetrics) {
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        metrics.request(route: context.endpointPath ?? "unmatched", status: response.status.code)
        return response
    }
}
#endif
