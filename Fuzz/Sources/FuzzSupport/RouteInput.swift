/// An HTTP request in short, as the `serve` target reads its input: a first line
/// `METHOD target`, header lines `Name: value`, an empty line, then the body (the rest of the
/// input, as is). Lines end at `\n`; a header line without `:` is skipped.
public struct RouteInput: Sendable {
    public var method: String
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, target: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.target = target
        self.headers = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        self.body = body
    }

    /// Nil when the first line is not `METHOD /…`.
    public init?(_ bytes: [UInt8]) {
        var lines: [String] = []
        var start = 0
        var bodyStart = bytes.count
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let line = String(decoding: bytes[start..<index], as: UTF8.self)
                start = index + 1
                if line.isEmpty, !lines.isEmpty {
                    bodyStart = start
                    break
                }
                lines.append(line)
            }
            index += 1
        }
        if index == bytes.count, start < bytes.count { lines.append(String(decoding: bytes[start...], as: UTF8.self)) }
        guard let first = lines.first, let space = first.firstIndex(of: " ") else { return nil }
        method = String(first[..<space])
        target = String(first[first.index(after: space)...])
        guard target.hasPrefix("/") else { return nil }
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            var value = line[line.index(after: colon)...]
            while value.first == " " { value = value.dropFirst() }
            return (String(line[..<colon]), String(value))
        }
        body = bodyStart < bytes.count ? Array(bytes[bodyStart...]) : []
    }

    /// The input that reads as this request.
    public var bytes: [UInt8] {
        var text = method + " " + target + "\n"
        for (name, value) in headers { text += name + ": " + value + "\n" }
        return Array((text + "\n").utf8) + body
    }
}
