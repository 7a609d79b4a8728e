/// A 1-based position in a source file. Converted from libyaml's 0-based marks in exactly
/// one place (the YAML reader); everything downstream keeps these values.
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int
    /// Byte offset in the file, used to order locations and to slice text.
    public var offset: Int

    public init(path: String, line: Int, column: Int, offset: Int = 0) {
        self.path = path
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `path:line:col`, the form used in diagnostics and decision traces.
    public var description: String { "\(path):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return lhs.column < rhs.column
    }
}

/// A half-open range of source, `start..<end`, in one file.
public struct SourceSpan: Sendable, Hashable, Codable, CustomStringConvertible {
    public var start: SourceLocation
    public var end: SourceLocation

    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    /// A span that covers a single position.
    public init(at location: SourceLocation) {
        self.start = location
        self.end = location
    }

    public var path: String { start.path }
    public var description: String { start.description }
}
