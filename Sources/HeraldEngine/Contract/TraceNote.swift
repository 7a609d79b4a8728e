import HeraldSyntax

/// A trace citation or note as the engine records it: already text, or the parts to build the
/// text from when someone reads it (`json()`, `herald explain`). Deciding never formats the
/// trace, so a decision costs the same whether or not its trace is read.
enum TraceText: Sendable {
    case text(String)
    /// `path:line:col` of a location.
    case location(SourceLocation)
    /// Text built on demand from the values the closure captured.
    case lazy(@Sendable () -> String)

    var string: String {
        switch self {
        case .text(let s): s
        case .location(let l): "\(l.path):\(l.line):\(l.column)"
        case .lazy(let make): make()
        }
    }
}

extension TraceText {
    /// The citation of a span's start.
    static func cite(_ span: SourceSpan) -> TraceText { .location(span.start) }
}
