/// The text of one input file, with the line table needed to turn byte offsets into
/// 1-based line and column positions.
///
/// Columns count Unicode scalars from 1, the same unit libyaml uses for its marks, so a
/// position reported by the YAML reader and one computed here for an expression inside a
/// scalar agree.
public struct SourceFile: Sendable, Hashable {
    /// The path as the user named it (used verbatim in diagnostics).
    public let path: String
    /// The file's bytes as read. May be invalid UTF-8; the reader reports that.
    public let bytes: [UInt8]
    /// Byte offset of the first byte of every line.
    public let lineStarts: [Int]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        var starts = [0]
        starts.reserveCapacity(bytes.count / 32 + 1)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        self.lineStarts = starts
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The text of the file, with invalid UTF-8 replaced (for display only).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The 1-based line containing a byte offset.
    public func line(containingOffset offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The 1-based position of a byte offset (columns in Unicode scalars).
    public func location(ofOffset offset: Int) -> SourceLocation {
        var hint = Hint()
        return location(hint: &hint, ofOffset: offset)
    }

    /// The last position a forward-walking reader asked for: its line, byte offset and column.
    public struct Hint: Sendable {
        var line = 0
        var offset = 0
        var column = 0

        public init() {}
    }

    /// `location(ofOffset:)` for a reader that walks the file forward: positions on the
    /// hint's line or the next few are found without a search, and a column on the hint's
    /// line is counted from the hint's column, forward or back, or from the line's start,
    /// whichever is nearer. The hint is updated.
    ///
    /// - Complexity: O(distance to the hint or to the line's start, whichever is shorter), plus
    ///   O(log lines) when the offset is more than a few lines away. A reader that asks for the
    ///   end of a node and then its start pays for the node's length, not the line's, so
    ///   reading a long line is linear in its length.
    public func location(hint: inout Hint, ofOffset offset: Int) -> SourceLocation {
        let clamped = max(0, min(offset, bytes.count))
        var line = 0
        if hint.line >= 1, hint.line <= lineStarts.count, lineStarts[hint.line - 1] <= clamped {
            var candidate = hint.line
            while candidate < lineStarts.count, lineStarts[candidate] <= clamped, candidate < hint.line + 4 { candidate += 1 }
            if candidate == lineStarts.count || lineStarts[candidate] > clamped { line = candidate }
        }
        if line == 0 { line = self.line(containingOffset: clamped) }
        var column = 1
        let lineStart = lineStarts[line - 1]
        bytes.withUnsafeBufferPointer { b in
            // Columns count scalar starts: every byte that is not a UTF-8 continuation byte.
            if line == hint.line, hint.offset >= lineStart, hint.offset > clamped, hint.offset - clamped < clamped - lineStart {
                // Back from the hint (the start of a node whose end was just asked for).
                column = hint.column
                var index = hint.offset
                while index > clamped {
                    index -= 1
                    if b[index] & 0xC0 != 0x80 { column -= 1 }
                }
                return
            }
            var index = lineStart
            if line == hint.line, hint.offset <= clamped, hint.offset >= lineStart {
                column = hint.column
                index = hint.offset
            }
            while index < clamped {
                if b[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
        }
        hint.line = line
        hint.offset = clamped
        hint.column = column
        return SourceLocation(path: path, line: line, column: column, offset: clamped)
    }

    /// The byte offset of a 1-based line and column (columns in Unicode scalars).
    public func offset(line: Int, column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return bytes.count }
        var index = lineStarts[line - 1]
        var remaining = column - 1
        while remaining > 0, index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D {
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            remaining -= 1
        }
        return index
    }

    /// The text of a 1-based line without its line break (for caret snippets).
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : bytes.count
        while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
