/// How serious a diagnostic is. Errors make a bundle invalid; warnings fail only under
/// `--strict`; notes never fail.
public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case error
    case warning
    case note

    private var rank: Int {
        switch self {
        case .error: 2
        case .warning: 1
        case .note: 0
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One problem found in a source file: a stable code, a one-line message in Cedar's style
/// (lowercase, user input in backticks, no final period), where it is, and extra help.
///
/// Tests assert on `code`, never on `message`: the wording may improve, the code never changes.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// An extra line of help, optionally pointing at another place (the first definition of
    /// a duplicate key, say).
    public struct Note: Sendable, Hashable, Codable {
        public var message: String
        public var span: SourceSpan?

        public init(_ message: String, span: SourceSpan? = nil) {
            self.message = message
            self.span = span
        }
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var span: SourceSpan?
    public var notes: [Note]
    /// The replacement the user probably meant ("did you mean `maintenance`?").
    public var suggestion: String?

    public init(
        _ code: DiagnosticCode,
        _ message: String,
        at span: SourceSpan?,
        severity: Severity? = nil,
        notes: [Note] = [],
        suggestion: String? = nil
    ) {
        self.code = code
        self.message = message
        self.span = span
        self.severity = severity ?? code.defaultSeverity
        self.notes = notes
        self.suggestion = suggestion
    }

    /// `path:line:col: error[H0101]: message` (no snippet; see `DiagnosticRenderer`).
    public var description: String {
        let place = span.map { "\($0.start): " } ?? ""
        return "\(place)\(severity.rawValue)[\(code.id)]: \(message)"
    }
}

/// An ordered collection of diagnostics, filled by every phase and returned alongside its
/// result: phases collect, only the boundary (CLI, `load`) decides to stop.
public struct Diagnostics: Sendable, Hashable, Codable, Sequence {
    public private(set) var items: [Diagnostic] = []

    public init(_ items: [Diagnostic] = []) { self.items = items }

    public mutating func append(_ diagnostic: Diagnostic) { items.append(diagnostic) }
    public mutating func append(contentsOf other: some Sequence<Diagnostic>) { items.append(contentsOf: other) }

    public mutating func error(_ code: DiagnosticCode, _ message: String, at span: SourceSpan?, notes: [Diagnostic.Note] = [], suggestion: String? = nil) {
        items.append(Diagnostic(code, message, at: span, severity: .error, notes: notes, suggestion: suggestion))
    }

    public mutating func warning(_ code: DiagnosticCode, _ message: String, at span: SourceSpan?, notes: [Diagnostic.Note] = [], suggestion: String? = nil) {
        items.append(Diagnostic(code, message, at: span, severity: .warning, notes: notes, suggestion: suggestion))
    }

    public var hasErrors: Bool { items.contains { $0.severity == .error } }
    public var errorCount: Int { items.filter { $0.severity == .error }.count }
    public var warningCount: Int { items.filter { $0.severity == .warning }.count }
    public var isEmpty: Bool { items.isEmpty }
    public var count: Int { items.count }
    public var first: Diagnostic? { items.first }

    /// Diagnostics in file order, then by code: the stable order every output format uses.
    public var sorted: [Diagnostic] {
        items.enumerated().sorted { a, b in
            let l = a.element, r = b.element
            switch (l.span, r.span) {
            case let (ls?, rs?):
                if ls.start.path != rs.start.path { return ls.start.path < rs.start.path }
                if ls.start.line != rs.start.line { return ls.start.line < rs.start.line }
                if ls.start.column != rs.start.column { return ls.start.column < rs.start.column }
            case (nil, _?): return true
            case (_?, nil): return false
            case (nil, nil): break
            }
            if l.code.id != r.code.id { return l.code.id < r.code.id }
            return a.offset < b.offset
        }.map(\.element)
    }

    public func makeIterator() -> IndexingIterator<[Diagnostic]> { items.makeIterator() }
}
