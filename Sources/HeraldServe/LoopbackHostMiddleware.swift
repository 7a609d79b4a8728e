#if Server
public import Hummingbird

/// On a server without tokens (which listens on loopback only), refuses a request whose `Host`
/// is not a loopback name with 421 `host_not_allowed`. A DNS-rebinding page reaches 127.0.0.1
/// under its own name (`Host: evil.example:8080`), so without this it could read ledgers.
/// A request without `Host` (HTTP/1.0 tools) is let through: browsers always send one.
public struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let authority = request.head.authority, !Self.isLoopback(authority: authority) {
            throw APIError(.misdirectedRequest, code: "host_not_allowed",
                           message: "`Host: \(authority.prefix(100))` is not a loopback name; a server without `--tokens` answers only localhost, 127.0.0.1 and [::1]",
                           field: "Host")
        }
        return try await next(request, context)
    }

    /// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
    static func isLoopback(authority: String) -> Bool {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && Self.isPort(rest.dropFirst())) else { return false }
            host = host[host.index(after: host.startIndex)..<close]
            return host == "::1" || host == "0:0:0:0:0:0:0:1"
        }
        if let colon = host.lastIndex(of: ":") {
            guard Self.isPort(host[host.index(after: colon)...]) else { return false }
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy(\.isASCII) && UInt16(text) != nil
    }
}
#endif
