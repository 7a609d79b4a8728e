import HeraldSyntax

/// A rule a decision or trace cites, as an index into the citations of the type's table
/// (`CitationTable`): plain data, so recording one counts no reference, and it can only
/// name a citation the table owns. Only `CitationTable.Builder` makes one (its initializer
/// is private to this file): a `Citation` built anywhere else is not a `TableCitation`, so
/// a stage cannot hand the trace or a verdict a citation that dies before the decision.
struct TableCitation: Sendable, Hashable {
    fileprivate let index: UInt32

    fileprivate init(index: Int) {
        self.index = UInt32(truncatingIfNeeded: index)
    }
}

/// The citations of one type's table (`TypeTable.citations`), formatted once per bundle:
/// decisions hold the table, so an index into this table stays valid as long as the
/// decision that recorded it.
struct CitationTable: Sendable {
    private let entries: [Citation]

    /// The citation `cited` names.
    subscript(cited: TableCitation) -> Citation { entries[Int(cited.index)] }

    /// Mints the citations of one table while it is built; `finish()` gives the table that
    /// owns them. An index minted by one builder means nothing in another table, so a table
    /// builds its citations with its own builder, in its initializer.
    struct Builder {
        private var entries: [Citation] = []

        init() {}

        /// A citation of the rule `id` written at `span`.
        mutating func cite(_ id: String?, at span: SourceSpan?) -> TableCitation {
            entries.append(Citation(id: id, span: span))
            return TableCitation(index: entries.count - 1)
        }

        func finish() -> CitationTable { CitationTable(entries: entries) }
    }

    private init(entries: [Citation]) {
        self.entries = entries
    }
}

extension SourceSpan {
    /// `path:line:col` of the span's start, as decisions and traces cite it.
    var citation: String { "\(start.path):\(start.line):\(start.column)" }
}
