import HeraldContract

extension LanguageServer {
    /// Serves one session over `stream` until `exit` or the end of input; the process's exit
    /// code (0 after `shutdown` then `exit`, 1 otherwise, as LSP asks).
    public func run(_ stream: inout MessageStream) -> Int32 {
        while true {
            let answers: [JSON]
            do {
                let body = try stream.read()
                do {
                    answers = handle(try JSON.parse(bytes: body, limits: JSONLimits(maxDepth: 64, maxBytes: stream.maxBody)))
                } catch {
                    answers = [Self.parseError("\(error)")]
                }
            } catch .tooLarge(let count) {
                answers = [Self.error(id: .null, code: .invalidRequest, "a message of \(count) bytes is over the \(stream.maxBody >> 20) MB limit")]
            } catch {
                // The end of input, or a stream that can no longer be framed: the client is gone.
                return state == .shuttingDown ? 0 : 1
            }
            for answer in answers { stream.write(Array(answer.serialized().utf8)) }
            if case .exited(let code) = state { return code }
        }
    }
}
