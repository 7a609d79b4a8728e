import HeraldSyntax

extension SourceSpan {
    /// `path:line:col` of the span's start, as decisions and traces cite it.
    var citation: String { "\(start.path):\(start.line):\(start.column)" }
}
