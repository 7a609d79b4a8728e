import HeraldSyntax

/// A trace note that needs more than a code (`TraceNote`): text, or text built when someone
/// reads the trace (`json()`, `herald explain`) from the values the closure captured, so a
/// verdict's note costs nothing to format unless it is read.
enum TraceText: Sendable {
    case text(String)
    case lazy(@Sendable () -> String)

    var string: String {
        switch self {
        case .text(let s): s
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
