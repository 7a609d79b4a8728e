#if Server
public import Hummingbird
public import Logging

/// The request context of `herald serve`: Hummingbird's core storage plus the request id the
/// outermost middleware assigns (also in the logger's metadata as `request_id`).
public struct ServeRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var requestID: String = ""

    public init(source: Source) {
        coreContext = .init(source: source)
    }
}
#endif
