import HeraldSyntax

/// A trace citation or note as the engine records it: already text, or the parts to build the
/// text from when someone reads it (`json()`, `herald explain`). Deciding never formats the
/// trace, so a decision costs the same whether or not its trace is read.
enum TraceText: Sendable {
    case text(String)
    /// `prefix` + "`name`" (`channel `push``, `key `…``): the common pass notes, kept
    /// without a closure so recording them allocates nothing.
    case quoted(StaticString, String)
    /// A number followed by a fixed text (`3 rule(s) false`).
    case counted(Int, StaticString)
    /// Text built on demand from the values the closure captured.
    case lazy(@Sendable () -> String)

    var string: String {
        switch self {
        case .text(let s): s
        case .quoted(let prefix, let name): "\(prefix)`\(name)`"
        case .counted(let n, let text): "\(n)\(text)"
        case .lazy(let make): make()
        }
    }
}


/// A rule id and where it is written (`path:line:col`), formatted once when the engine is
/// built and shared by every decision and trace step that cites it (one reference count).
final class Citation: Sendable {
    let id: String?
    let source: String?

    init(id: String?, source: String?) {
        self.id = id
        self.source = source
    }

    convenience init(id: String?, span: SourceSpan?) {
        self.init(id: id, source: span?.citation)
    }

    /// nil when neither part is present.
    static func make(id: String?, source: String?) -> Citation? {
        id == nil && source == nil ? nil : Citation(id: id, source: source)
    }
}
