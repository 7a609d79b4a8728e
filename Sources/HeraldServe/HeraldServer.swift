#if Server
import HTTPTypes
public import Hummingbird
import HeraldContract
import HeraldEngine
public import HeraldStore
public import Logging
import NIOCore
public import ServiceLifecycle

/// `herald serve`: the routes of docs/serve.md over a policy registry (and a ledger store), with
/// the middlewares of the safe defaults. Build one, then `run()` it (the CLI) or test its
/// `router()` in process (HummingbirdTesting).
public struct HeraldServer: Sendable {
    public let configuration: ServeConfiguration
    public let registry: PolicyRegistry
    public let metrics: ServeMetrics
    public let logger: Logger
    public let store: any LedgerStore
    let decisionLog: DecisionLog?
    /// Services the store needs run (a PostgreSQL client's connection pool), stopped after the server.
    let storeServices: [any Service]
    let body: RequestBodyReader

    /// Checks the configuration, opens the decision log and compiles every bundle.
    /// - Throws: `ServeSetupError` for a configuration that must not run.
    /// - Parameters:
    ///   - store: the ledger store (opened by the caller, who links its driver).
    ///   - storeServices: services the store needs running; they stop after the HTTP server has
    ///     drained, which closes the store.
    public init(configuration: ServeConfiguration, store: any LedgerStore, storeServices: [any Service] = [],
                logger: Logger, metrics: ServeMetrics = ServeMetrics()) throws(ServeSetupError) {
        self.store = store
        self.storeServices = storeServices
        self.configuration = try configuration.validated()
        self.logger = logger
        self.metrics = metrics
        self.decisionLog = try configuration.decisionLogPath.map { path throws(ServeSetupError) in try DecisionLog(path: path) }
        self.registry = try PolicyRegistry(directory: configuration.policiesDirectory, store: store, logger: logger, metrics: metrics,
                                           quietPeriod: configuration.reloadQuietPeriod)
        self.body = RequestBodyReader(maxBytes: configuration.maxBodyBytes, maxDepth: configuration.maxJSONDepth)
    }

    /// The router with every route and middleware.
    public func router() -> Router<ServeRequestContext> {
        let router = Router(context: ServeRequestContext.self)
        // Outermost first: each sees the answer of the ones after it, so logging and metrics see
        // every error as the JSON response the client got.
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: LogRequestMiddleware())
        router.add(middleware: HTTPMetricsMiddleware(metrics: metrics))
        router.add(middleware: JSONErrorMiddleware())
        if let tokens = configuration.tokens {
            router.add(middleware: AuthMiddleware(tokens: tokens))
        } else {
            router.add(middleware: LoopbackHostMiddleware())
        }
        addAdminRoutes(to: router)
        addPolicyRoutes(to: router)
        return router
    }

    /// The application: the HTTP server plus the policy watcher, for `ServiceGroup`.
    /// - Parameter trapsHangup: whether SIGHUP reloads every policy.
    public func application(trapsHangup: Bool = true) -> some ApplicationProtocol {
        let (readTimeout, maxBodyBytes) = (configuration.readTimeout, configuration.maxBodyBytes)
        let watcher = PolicyWatcher(registry: registry, interval: configuration.reloadInterval, logger: logger, trapsHangup: trapsHangup)
        return Application(
            router: router(),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [HTTPGuardHandler(readTimeout: .init(readTimeout), maxBodyBytes: maxBodyBytes)],
                idleTimeout: .seconds(60))),
            configuration: .init(address: .hostname(configuration.listen.host, port: configuration.listen.port), serverName: "herald"),
            services: storeServices + [watcher],
            onServerRunning: { [logger, listen = configuration.listen, maxConnections = configuration.maxConnections] channel in
                // Made on the channel's loop: a handler is not Sendable.
                try? await channel.eventLoop.submit {
                    let limit = AcceptLimitHandler(maxConnections: maxConnections, logger: logger)
                    try channel.pipeline.syncOperations.addHandler(limit, position: .first)
                }.get()
                logger.notice("listening", metadata: [
                    "address": .string(listen.description), "bound": .string(channel.localAddress?.description ?? ""),
                    "max_connections": .stringConvertible(maxConnections),
                ])
            },
            logger: logger
        )
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting, lets the requests in flight finish and
    /// closes the store.
    public func run() async throws {
        try await application().runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// A GET route, and HEAD on the same path (RFC 9110 § 9.3.2): the GET answer's status and
    /// headers (its `Content-Length` too), without the body.
    static func get(_ path: RouterPath, on router: Router<ServeRequestContext>,
                    _ handler: @escaping @Sendable (Request, ServeRequestContext) async throws -> Response) {
        router.get(path, use: handler)
        router.head(path) { request, context in
            var response = try await handler(request, context)
            let length = response.body.contentLength
            response.body = .init()
            if let length { response.headers[.contentLength] = String(length) }
            return response
        }
    }

    // MARK: - Responses

    static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(value.serialized())
        buffer.writeString("\n")
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }

    /// The policy a `/v1/policies/{name}/…` route names, with a good compile to decide on.
    func servedEngine(_ context: ServeRequestContext) throws -> (ServedPolicy, Engine) {
        let name = try context.pathParameter("name")
        guard let policy = registry.policy(name) else {
            throw APIError.unknownPolicy(name, known: registry.policies.map(\.name))
        }
        guard let engine = policy.engine else {
            throw APIError(.serviceUnavailable, code: "policy_not_loaded",
                           message: "policy `\(name)` has never compiled; see `GET /v1/policies` for its errors",
                           field: "name", retryAfter: configuration.retryAfterSeconds)
        }
        return (policy, engine)
    }
}
#endif
