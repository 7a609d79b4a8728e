#if Server
/// How `herald serve` runs: values only, checked by `validated()` before anything listens.
public struct ServeConfiguration: Sendable {
    /// The directory whose bundles are served (`policies/`, or one bundle directory).
    public var policiesDirectory: String
    public var listen: ListenAddress = .loopbackDefault
    /// Bearer tokens; required for a non-loopback address.
    public var tokens: BearerTokens?
    /// The largest request body, in bytes (413 above it).
    public var maxBodyBytes: Int = 1 << 20
    /// The deepest JSON nesting a request may have (400 `too_deep` beyond it).
    public var maxJSONDepth: Int = 32
    /// How long a request may take before it is answered 503 `timeout`.
    public var requestTimeout: Duration = .seconds(10)
    /// How long a client may take to send a request, head to end, before it is answered 408
    /// `request_timeout` and the connection closed (`HTTPGuardHandler`).
    public var readTimeout: Duration = .seconds(10)
    /// The most connections open at once; beyond it new ones wait in the listen backlog
    /// (`AcceptLimitHandler`). `herald serve` sets it below its file descriptor limit.
    public var maxConnections: Int = 1_000
    /// How often the policy files' modification times are checked.
    public var reloadInterval: Duration = .seconds(1)
    /// How long a bundle's files must have been left alone before a reload reads them (a file
    /// still being written may parse as a shorter valid policy).
    public var reloadQuietPeriod: Duration = .seconds(1)
    /// `--decision-log FILE`.
    public var decisionLogPath: String?
    /// Seconds a client is told to wait (`Retry-After`) while the store is unavailable.
    public var retryAfterSeconds: Int = 1

    public init(policiesDirectory: String) {
        self.policiesDirectory = policiesDirectory
    }

    /// Refuses a non-loopback address without tokens, and nonsensical limits.
    public func validated() throws(ServeSetupError) -> ServeConfiguration {
        if !listen.isLoopback, tokens == nil {
            throw .publicWithoutTokens(listen.description)
        }
        if maxBodyBytes < 1 { throw .badListenAddress(listen.description, "the body limit must be at least 1 byte") }
        if maxConnections < 1 { throw .badListenAddress(listen.description, "the connection limit must be at least 1") }
        return self
    }
}
#endif
