#if Server
/// A problem with how the server was asked to start, found before it listens. The CLI prints the
/// description and exits 64.
public enum ServeSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    case badListenAddress(String, String)
    case publicWithoutTokens(String)
    case tokensFile(String, String)
    case policiesDirectory(String, String)
    case decisionLog(String, String)
    case store(String)

    public var description: String {
        switch self {
        case .badListenAddress(let text, let why):
            "bad listen address `\(text)`: \(why)"
        case .publicWithoutTokens(let address):
            "refusing to listen on non-loopback address `\(address)` without `--tokens FILE`; other machines could call the server unauthenticated"
        case .tokensFile(let path, let why):
            "cannot use tokens file `\(path)`: \(why)"
        case .policiesDirectory(let path, let why):
            "cannot serve policies from `\(path)`: \(why)"
        case .decisionLog(let path, let why):
            "cannot open decision log `\(path)`: \(why)"
        case .store(let why):
            "cannot open the store: \(why)"
        }
    }
}
#endif
