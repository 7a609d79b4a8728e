#if Server
public import HeraldContract
public import HeraldEngine
public import HeraldStore
import HeraldSyntax

/// One bundle the server serves, as of its last load: the engine of the last good compile (nil
/// until one succeeds) and the result of the last attempt. A value: a request that took it keeps
/// deciding on it while a reload swaps in a newer one.
public struct ServedPolicy: Sendable {
    /// The bundle directory's name: `/v1/policies/{name}/…`.
    public var name: String
    public var directory: String
    /// The last good compile's engine, digest and load time (Unix seconds).
    public var engine: Engine?
    public var digest: String?
    public var loadedAt: Int?
    public var lastLoad: LoadResult
    /// The files the last attempt read, with their modification times and sizes, to notice edits.
    var fingerprint: [FileStamp]
    /// The last good compile's sources, for `explain`'s YAML lines.
    var sources: [String: SourceFile] = [:]
    /// Decide-and-record over the server's store for the last good compile.
    public var recorder: DecisionRecorder?

    /// The outcome of the latest compile.
    public struct LoadResult: Sendable, Equatable {
        public var ok: Bool
        /// When it was attempted, Unix seconds.
        public var at: Int
        /// The digest of the files that were compiled (also when the compile failed).
        public var digest: String?
        /// The error diagnostics, rendered as text (`path:line:col: error[H…]: …`), one per line.
        public var errors: [String]
    }

    /// `{"name", "digest", "loadedAt", "serving", "lastLoad": {"ok", "at", "digest", "errors"}}`.
    public var json: JSON {
        [
            "name": .string(name),
            "digest": digest.map(JSON.string) ?? .null,
            "loadedAt": loadedAt.map { .string(RFC3339.format($0, offsetSeconds: 0)) } ?? .null,
            "serving": .bool(engine != nil),
            "lastLoad": [
                "ok": .bool(lastLoad.ok),
                "at": .string(RFC3339.format(lastLoad.at, offsetSeconds: 0)),
                "digest": lastLoad.digest.map(JSON.string) ?? .null,
                "errors": .array(lastLoad.errors.map(JSON.string)),
            ],
        ]
    }
}

/// A file's identity for change detection: path, modification time (nanoseconds) and size.
struct FileStamp: Sendable, Equatable {
    var path: String
    var modified: Int
    var size: Int
}
#endif
