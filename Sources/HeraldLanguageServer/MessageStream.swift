#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JSON-RPC messages framed by LSP's base protocol: `Content-Length: N` and other header lines,
/// a blank line, then N bytes of JSON.
public struct MessageStream {
    /// Why a message could not be read.
    public enum Problem: Error, Equatable {
        /// The stream ended (between messages: the client went away).
        case end
        /// A header section that cannot be read; what follows cannot be framed, so the session ends.
        case badHeader(String)
        /// A body larger than `maxBody`; it was skipped, and the next message can be read.
        case tooLarge(Int)
    }

    public let input: Int32
    public let output: Int32
    public var maxBody: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(input: Int32 = 0, output: Int32 = 1, maxBody: Int = 64 << 20) {
        self.input = input
        self.output = output
        self.maxBody = maxBody
    }

    /// The next message's body.
    public mutating func read() throws(Problem) -> [UInt8] {
        var length: Int?
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw .badHeader("a header line without `:`: \(line.prefix(80))") }
            let name = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            if name == "content-length" {
                guard let count = Int(value), count >= 0 else { throw .badHeader("Content-Length `\(value.prefix(40))` is not a byte count") }
                length = count
            }
        }
        guard let length else { throw .badHeader("a message without Content-Length") }
        if length > maxBody {
            try skip(length)
            throw .tooLarge(length)
        }
        return try take(length)
    }

    /// Writes one message.
    public func write(_ body: [UInt8]) {
        let bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// A header line without its CRLF (a bare LF is accepted too); at most 8 KB.
    private mutating func readLine() throws(Problem) -> String {
        // Bytes of this line already searched, counted from `start` (`fill` may move the buffer).
        var scanned = 0
        while true {
            if let newline = buffer[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return line
            }
            scanned = buffer.count - start
            if scanned > 8192 { throw .badHeader("a header line longer than 8 KB") }
            guard fill() else { throw buffer.count == start ? .end : .badHeader("the stream ended inside a header") }
        }
    }

    private mutating func take(_ count: Int) throws(Problem) -> [UInt8] {
        while buffer.count - start < count {
            guard fill() else { throw .badHeader("the stream ended inside a message") }
        }
        let body = Array(buffer[start..<start + count])
        start += count
        return body
    }

    private mutating func skip(_ count: Int) throws(Problem) {
        var left = count
        while left > 0 {
            if buffer.count == start, !fill() { throw .badHeader("the stream ended inside a message") }
            let taken = min(left, buffer.count - start)
            start += taken
            left -= taken
        }
    }

    /// Reads more input; false at its end.
    private mutating func fill() -> Bool {
        if start > 0, start == buffer.count || start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
