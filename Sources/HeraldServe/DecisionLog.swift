#if Server
import Foundation
import HeraldContract
import HeraldEngine
import Synchronization

/// `--decision-log FILE`: one JSON line per decision, appended, like OPA's decision logs:
/// `{"ts","request_id","policy","digest","route","user","decision"}`. A line is written after the
/// decision is recorded in the store and before the answer is sent. Writes are serialized by a
/// lock; each line is one `write(2)` on a descriptor opened with `O_APPEND`.
public final class DecisionLog: Sendable {
    let descriptor: Int32
    let lock = Mutex<Void>(())

    /// Opens (creating, appending to) the file.
    /// - Throws: `ServeSetupError.decisionLog` when it cannot be opened.
    public init(path: String) throws(ServeSetupError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .decisionLog(path, String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends a line; `response` is the JSON answered, embedded as is.
    func append(requestID: String, policy: String, digest: String, route: String, user: String, replayed: Bool, response: String) {
        let head: JSON = [
            "ts": .string(JSONLogHandler.timestamp()),
            "request_id": .string(requestID),
            "policy": .string(policy),
            "digest": .string(digest),
            "route": .string(route),
            "user": .string(user),
            "replayed": .bool(replayed),
        ]
        // `{…,"decision":<response>}`: the head's members, then the response's bytes unchanged.
        let text = String(head.serialized().dropLast()) + ",\"decision\":" + response + "}\n"
        let bytes = Array(text.utf8)
        lock.withLock { _ in
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }
}
#endif
