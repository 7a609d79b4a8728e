#if Server
import Foundation

/// The bearer tokens a server accepts (`--tokens FILE`: one token a line; blank lines and lines
/// starting with `#` are ignored). A presented token is compared with every accepted one in time
/// that depends only on the lengths, so timing does not reveal a token's prefix.
public struct BearerTokens: Sendable {
    let tokens: [[UInt8]]

    public init(_ tokens: [String]) {
        self.tokens = tokens.map { Array($0.utf8) }
    }

    /// Reads a tokens file.
    /// - Throws: `ServeSetupError.tokensFile` when it cannot be read or holds no token, or a token is
    ///   shorter than 16 bytes.
    public static func load(_ path: String) throws(ServeSetupError) -> BearerTokens {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .tokensFile(path, "cannot read it")
        }
        var tokens: [String] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let token = line.trimmingCharacters(in: .whitespaces)
            if token.isEmpty || token.hasPrefix("#") { continue }
            if token.utf8.count < 16 {
                throw .tokensFile(path, "the token on line \(index + 1) is shorter than 16 characters")
            }
            tokens.append(token)
        }
        if tokens.isEmpty { throw .tokensFile(path, "it holds no token") }
        return BearerTokens(tokens)
    }

    /// Whether `presented` is one of the tokens. Every token is compared, each in full.
    public func accepts(_ presented: some StringProtocol) -> Bool {
        let bytes = Array(presented.utf8)
        var found: UInt8 = 0
        for token in tokens {
            found |= Self.equal(token, bytes)
        }
        return found != 0
    }

    /// 1 when equal, 0 otherwise, without an early exit on the first differing byte.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> UInt8 {
        var difference: UInt8 = a.count == b.count ? 0 : 1
        let count = max(a.count, b.count)
        for index in 0..<count {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0 ? 1 : 0
    }
}
#endif
