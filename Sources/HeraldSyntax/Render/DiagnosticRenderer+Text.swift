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

    /// Most characters a snippet shows of a source line, and most cells its caret line spans
    /// past the gutter. A longer line is cut around the caret, with `…` where text is left out.
    public static let snippetWidth = 180
    /// Characters kept before the caret when a long line is cut (unless the caret is near
    /// enough to the line's start to show the line from its beginning).
    static let snippetContextBefore = 60
    /// Lines up to this many bytes are decoded whole; a longer line only around the caret, so
    /// a snippet of a multi-megabyte line costs no more than one of a short line.
    static let snippetWholeLineBytes = 4096

    /// The source line of the span's start and a caret line under the span: `^` at the start,
    /// `~` across the rest of the span on that line (to the end of the line when the span goes on).
    /// A line longer than `snippetWidth` is shown as a window around the caret, cut with `…`; the
    /// underline stops at the window's end. Shorter lines are shown whole.
    func snippet(_ span: SourceSpan, in file: SourceFile, style: Style) -> String {
        let lineNumber = span.start.line
        guard lineNumber >= 1, lineNumber <= file.lineStarts.count else { return "" }
        let line = snippetLine(span, in: file)
        let cells = cellOffsets(line.scalars)
        // Characters a scalar adds to either printed line: its cells, and at least one.
        var units = [0]
        units.reserveCapacity(cells.count)
        for index in line.scalars.indices { units.append(units[index] + max(1, cells[index + 1] - cells[index])) }

        let count = line.scalars.count
        let startIndex = line.start
        var first = 0
        var last = count
        if line.cutBefore || line.cutAfter || units[count] > Self.snippetWidth {
            // Room for a `…` at either end.
            let budget = Self.snippetWidth - 2
            if line.cutBefore || units[startIndex] > budget - Self.snippetContextBefore {
                first = startIndex
                while first > 0, units[startIndex] - units[first - 1] <= Self.snippetContextBefore { first -= 1 }
            }
            last = startIndex
            while last < count, units[last + 1] - units[first] <= budget { last += 1 }
            // Near the line's end: spend what is left on text before the caret.
            if last == count, !line.cutAfter {
                while first > 0, units[last] - units[first - 1] <= budget { first -= 1 }
            }
        }
        let cutBefore = line.cutBefore || first > 0
        let cutAfter = line.cutAfter || last < count
        var shown = cutBefore ? "…" : ""
        shown += shownText(line.scalars, cells: cells, first..<last)
        if cutAfter { shown += "…" }

        let startCell = cells[startIndex] - cells[first] + (cutBefore ? 1 : 0)
        let endIndex = min(max(line.end, startIndex), last)
        let width = max(1, cells[endIndex] - cells[startIndex])
        let gutterWidth = String(lineNumber).count
        let pad = String(repeating: " ", count: gutterWidth)
        var out = paint(pad + " |", .gutter) + "\n"
        out += paint(String(lineNumber) + " |", .gutter) + (shown.isEmpty ? "" : " " + shown) + "\n"
        let carets = "^" + String(repeating: "~", count: width - 1)
        out += paint(pad + " |", .gutter) + " " + String(repeating: " ", count: startCell) + paint(carets, style) + "\n"
        return out
    }

    /// The scalars of the span's start line that a snippet may show, and where the span starts
    /// and ends among them. Short lines are decoded whole; a long one from `snippetWidth`
    /// characters before the caret to `snippetWidth` past it (`cutBefore`/`cutAfter` say
    /// whether text was left out), found by walking bytes from the line's start to the caret.
    struct SnippetLine {
        var scalars: [Unicode.Scalar]
        var start: Int
        var end: Int
        var cutBefore = false
        var cutAfter = false
    }

    func snippetLine(_ span: SourceSpan, in file: SourceFile) -> SnippetLine {
        let bytes = file.bytes
        let lineNumber = span.start.line
        let lineStart = file.lineStarts[lineNumber - 1]
        var lineEnd = lineNumber < file.lineStarts.count ? file.lineStarts[lineNumber] : bytes.count
        while lineEnd > lineStart, bytes[lineEnd - 1] == 0x0A || bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let endsOnLine = span.end.path == span.start.path && span.end.line == lineNumber
        let continues = !endsOnLine && span.end.line > lineNumber

        if lineEnd - lineStart <= Self.snippetWholeLineBytes {
            let scalars = Array(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self).unicodeScalars)
            let start = min(max(span.start.column - 1, 0), scalars.count)
            let end = endsOnLine ? min(max(span.end.column - 1, start), scalars.count) : continues ? scalars.count : start
            return SnippetLine(scalars: scalars, start: start, end: end)
        }
        // Columns count scalar starts (bytes that are not UTF-8 continuation bytes), as in SourceFile.
        func forward(_ from: Int, _ steps: Int) -> Int {
            var index = from
            var left = steps
            while left > 0, index < lineEnd {
                index += 1
                while index < lineEnd, bytes[index] & 0xC0 == 0x80 { index += 1 }
                left -= 1
            }
            return index
        }
        func backward(_ from: Int, _ steps: Int) -> Int {
            var index = from
            var left = steps
            while left > 0, index > lineStart {
                index -= 1
                while index > lineStart, bytes[index] & 0xC0 == 0x80 { index -= 1 }
                left -= 1
            }
            return index
        }
        let caret = forward(lineStart, max(span.start.column - 1, 0))
        let regionStart = backward(caret, Self.snippetWidth)
        let regionEnd = forward(caret, Self.snippetWidth + 1)
        let spanEnd = endsOnLine ? forward(caret, min(max(span.end.column - span.start.column, 0), Self.snippetWidth + 1))
            : continues ? regionEnd : caret
        let before = Array(String(decoding: bytes[regionStart..<caret], as: UTF8.self).unicodeScalars)
        let inside = Array(String(decoding: bytes[caret..<spanEnd], as: UTF8.self).unicodeScalars)
        let after = Array(String(decoding: bytes[spanEnd..<regionEnd], as: UTF8.self).unicodeScalars)
        return SnippetLine(scalars: before + inside + after, start: before.count, end: before.count + inside.count,
                           cutBefore: regionStart > lineStart, cutAfter: regionEnd < lineEnd)
    }

    /// For every scalar index 0...count, the terminal cells before it when the scalars are
    /// shown (tabs expanded to tab stops, control characters as one replacement character).
    func cellOffsets(_ scalars: [Unicode.Scalar]) -> [Int] {
        var cells = [0]
        cells.reserveCapacity(scalars.count + 1)
        var cell = 0
        for scalar in scalars {
            if scalar == "\t" {
                cell = (cell / tabWidth + 1) * tabWidth
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                cell += 1
            } else {
                cell += Self.cellWidth(scalar)
            }
            cells.append(cell)
        }
        return cells
    }

    /// `scalars[range]` as shown: a tab as the spaces to its tab stop, a control character as
    /// `\u{FFFD}`.
    func shownText(_ scalars: [Unicode.Scalar], cells: [Int], _ range: Range<Int>) -> String {
        var shown = String.UnicodeScalarView()
        for index in range {
            let scalar = scalars[index]
            if scalar == "\t" {
                shown.append(contentsOf: String(repeating: " ", count: cells[index + 1] - cells[index]).unicodeScalars)
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                shown.append("\u{FFFD}")
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
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
