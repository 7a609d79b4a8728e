public import HeraldSyntax

/// Checks that positions point into the text they claim to: the promise behind every caret
/// snippet, trace source and `file:line:col`.
public enum SpanChecks {
    /// A location inside `file`: its path, a byte offset in `0...bytes.count`, and the line and
    /// column that offset has (`SourceFile.location(ofOffset:)`, the one conversion).
    public static func check(_ location: SourceLocation, in file: SourceFile, _ what: @autoclosure () -> String) {
        guard location.path == file.path else {
            Fuzz.fail("\(what()): path `\(location.path)` is not `\(file.path)`")
        }
        guard location.offset >= 0, location.offset <= file.bytes.count else {
            Fuzz.fail("\(what()): offset \(location.offset) outside 0...\(file.bytes.count) (\(location))")
        }
        let expected = file.location(ofOffset: location.offset)
        guard expected.line == location.line, expected.column == location.column else {
            Fuzz.fail("\(what()): \(location) but offset \(location.offset) is \(expected.line):\(expected.column)")
        }
    }

    /// A span inside `file` whose start is not after its end.
    public static func check(_ span: SourceSpan, in file: SourceFile, _ what: @autoclosure () -> String) {
        check(span.start, in: file, what() + " start")
        check(span.end, in: file, what() + " end")
        guard span.start.offset <= span.end.offset else {
            Fuzz.fail("\(what()): span ends (\(span.end.offset)) before it starts (\(span.start.offset))")
        }
    }

    /// Every diagnostic's span and its notes' spans point into one of `files` (by path);
    /// spans in files not given (a catalog the caller did not read) are not checked.
    public static func check(_ diagnostics: Diagnostics, in files: [String: SourceFile]) {
        for diagnostic in diagnostics {
            if let span = diagnostic.span, let file = files[span.path] {
                check(span, in: file, "diagnostic \(diagnostic.code.id) `\(diagnostic.message)`")
            }
            for note in diagnostic.notes {
                if let span = note.span, let file = files[span.path] {
                    check(span, in: file, "note of \(diagnostic.code.id) `\(note.message)`")
                }
            }
        }
    }

    /// A span within a one-line expression or template (`ExpressionCompiler.compile(_:at:)`
    /// starts it at offset 0, line 1, column 1): offsets in `0...length`.
    public static func check(_ span: SourceSpan, withinLength length: Int, _ what: @autoclosure () -> String) {
        for location in [span.start, span.end] where location.offset < 0 || location.offset > length || location.line != 1 {
            Fuzz.fail("\(what()): \(location) (offset \(location.offset)) outside the text's \(length) bytes")
        }
        guard span.start.offset <= span.end.offset else {
            Fuzz.fail("\(what()): span ends (\(span.end.offset)) before it starts (\(span.start.offset))")
        }
    }
}
