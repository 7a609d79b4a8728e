/// A JSON value built for writing, with object keys kept in the order given, so every
/// output format (diagnostics as JSON, SARIF, the JSON Schema) is byte-for-byte stable.
///
/// It only writes; the wire format's JSON, parser and writer, is `HeraldContract.JSON`.
public indirect enum JSONOutput: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONOutput])
    /// Members in writing order. Keys should be unique; duplicates are written as given.
    case object([(String, JSONOutput)])

    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// `.string(value)` when `value` is non-nil, `.null` otherwise.
    public static func string(_ value: String?) -> JSONOutput { value.map(JSONOutput.string) ?? .null }
    /// `.int(value)` when `value` is non-nil, `.null` otherwise.
    public static func int(_ value: Int?) -> JSONOutput { value.map(JSONOutput.int) ?? .null }

    /// The JSON text: compact, or indented by two spaces per level when `pretty`.
    /// A pretty document ends without a trailing newline.
    public func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .string(let value): JSONOutput.writeString(value, to: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                if pretty { JSONOutput.newline(&out, indent + 1) }
                element.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSONOutput.newline(&out, indent) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                if pretty { JSONOutput.newline(&out, indent + 1) }
                JSONOutput.writeString(key, to: &out)
                out += pretty ? ": " : ":"
                value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSONOutput.newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Writes `value` as a JSON string literal (`JSONString`).
    static func writeString(_ value: String, to out: inout String) {
        out += JSONString.literal(value)
    }
}
