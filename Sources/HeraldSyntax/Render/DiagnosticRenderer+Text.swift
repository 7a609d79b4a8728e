// The text format: for people at a terminal.
//
//     bundle.yaml:13:3: error[H0102]: duplicate key `daily-reminder`
//        |
//     13 |   daily-reminder:
//        |   ^~~~~~~~~~~~~~
//       = note: bundle.yaml:10:3: first defined here
//       = help: did you mean `x`?

extension DiagnosticRenderer {
    /// An ANSI style, applied only when `color` is on.
    enum Style {
        case error, warning, note, help, gutter, bold, ok

        var code: String {
            switch self {
            case .error: "\u{1B}[1;31m"
            case .warning: "\u{1B}[1;33m"
            case .note: "\u{1B}[1;36m"
            case .help: "\u{1B}[1;32m"
            case .gutter: "\u{1B}[1;34m"
            case .bold: "\u{1B}[1m"
            case .ok: "\u{1B}[1;32m"
            }
        }

        init(_ severity: Severity) {
            switch severity {
            case .error: self = .error
            case .warning: self = .warning
            case .note: self = .note
            }
        }
    }

    func paint(_ text: String, _ style: Style?) -> String {
        guard color, let style, !text.isEmpty else { return text }
        return style.code + text + "\u{1B}[0m"
    }

    func renderText(_ diagnostic: Diagnostic, sources: [String: SourceFile]) -> String {
        let style = Style(diagnostic.severity)
        var out = ""
        if let span = diagnostic.span { out += paint(displayLocation(span.start) + ": ", .bold) }
        out += paint("\(diagnostic.severity.rawValue)[\(diagnostic.code.id)]", style)
        out += paint(": " + Self.oneLine(diagnostic.message), .bold) + "\n"
        if let span = diagnostic.span, let file = sources[span.start.path] {
            out += snippet(span, in: file, style: style)
        }
        for note in diagnostic.notes {
            out += "  " + paint("= note", .note) + ": "
            if let span = note.span { out += displayLocation(span.start) + ": " }
            out += Self.oneLine(note.message) + "\n"
        }
        if let suggestion = diagnostic.suggestion {
            out += "  " + paint("= help", .help) + ": did you mean `\(Self.oneLine(suggestion))`?\n"
        }
        return out
    }

    /// The source line of the span's start and a caret line under the span: `^` at the start,
    /// `~` across the rest of the span on that line (to the end of the line when the span goes on).
    func snippet(_ span: SourceSpan, in file: SourceFile, style: Style) -> String {
        let lineNumber = span.start.line
        guard lineNumber >= 1, lineNumber <= file.lineStarts.count else { return "" }
        let scalars = Array(file.lineText(lineNumber).unicodeScalars)
        let (shown, columnsBefore) = expand(scalars)
        let startIndex = min(max(span.start.column - 1, 0), scalars.count)
        var endIndex: Int
        if span.end.path == span.start.path, span.end.line == lineNumber {
            endIndex = min(max(span.end.column - 1, startIndex), scalars.count)
        } else if span.end.line > lineNumber {
            endIndex = scalars.count
        } else {
            endIndex = startIndex
        }
        let startCell = columnsBefore[startIndex]
        let width = max(1, columnsBefore[max(endIndex, startIndex)] - startCell)
        let gutterWidth = String(lineNumber).count
        let pad = String(repeating: " ", count: gutterWidth)
        var out = paint(pad + " |", .gutter) + "\n"
        out += paint(String(lineNumber) + " |", .gutter) + (shown.isEmpty ? "" : " " + shown) + "\n"
        let carets = "^" + String(repeating: "~", count: width - 1)
        out += paint(pad + " |", .gutter) + " " + String(repeating: " ", count: startCell) + paint(carets, style) + "\n"
        return out
    }

    /// The line as shown (tabs expanded to tab stops, control characters made visible) and, for
    /// every scalar index 0...count, the number of terminal cells before it.
    func expand(_ scalars: [Unicode.Scalar]) -> (String, [Int]) {
        var shown = String.UnicodeScalarView()
        var cells = [0]
        cells.reserveCapacity(scalars.count + 1)
        var cell = 0
        for scalar in scalars {
            if scalar == "\t" {
                let next = (cell / tabWidth + 1) * tabWidth
                shown.append(contentsOf: String(repeating: " ", count: next - cell).unicodeScalars)
                cell = next
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                shown.append("\u{FFFD}")
                cell += 1
            } else {
                shown.append(scalar)
                cell += Self.cellWidth(scalar)
            }
            cells.append(cell)
        }
        return (String(shown), cells)
    }

    /// Terminal cells a scalar takes: 0 for combining marks and zero-width characters, 2 for
    /// East Asian wide characters and emoji, else 1.
    static func cellWidth(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }

    /// Messages are one line by contract; a stray line break must not break the layout.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline }) else { return text }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
