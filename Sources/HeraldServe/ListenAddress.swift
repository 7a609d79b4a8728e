#if Server
/// Where the server listens: `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080` or `0.0.0.0:8080`.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public static let loopbackDefault = ListenAddress(host: "127.0.0.1", port: 8080)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` (IPv6 hosts in brackets).
    /// - Throws: `ServeSetupError.badListenAddress` naming the problem.
    public init(parsing text: String) throws(ServeSetupError) {
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .badListenAddress(text, "expected `[ipv6]:port`")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw .badListenAddress(text, "expected `host:port`")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw .badListenAddress(text, "the port must be a number from 0 to 65535")
        }
        if host.isEmpty { host = "0.0.0.0" }
        self.init(host: String(host), port: port)
    }

    /// Whether only this machine can connect: `localhost`, 127.0.0.0/8 or `::1`.
    public var isLoopback: Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
#endif
