import HeraldSyntax

/// Parses schema type text: `bool`, `int`, `string`, `duration`, `instant`, `time`, `date`,
/// `weekday`, `enum(a, b)`, `list<T>`, `map<T>` (T a plain value: no list, map or optional), and `T?`.
enum SchemaTypeParser {
    static func parse(_ text: String) -> ValueType? {
        let t = text.trimmingSpaces
        if t.hasSuffix("?") {
            guard let inner = parse(String(t.dropLast())), !inner.isOptional else { return nil }
            return .optional(inner)
        }
        switch t {
        case "bool": return .bool
        case "int": return .int
        case "string": return .string
        case "duration": return .duration
        case "instant": return .instant
        case "time": return .time
        case "date": return .date
        case "weekday": return .weekday
        default: break
        }
        if t.hasPrefix("list<"), t.hasSuffix(">") {
            guard let inner = parse(String(t.dropFirst(5).dropLast())), !inner.isOptional else { return nil }
            return .list(inner)
        }
        if t.hasPrefix("map<"), t.hasSuffix(">") {
            guard let inner = parse(String(t.dropFirst(4).dropLast())) else { return nil }
            switch inner {
            case .optional, .list, .map: return nil
            default: return .map(inner)
            }
        }
        if t.hasPrefix("enum("), t.hasSuffix(")") {
            let cases = t.dropFirst(5).dropLast().split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            guard !cases.isEmpty, cases.allSatisfy({ NodeReader.isIdentifier($0) }), Set(cases).count == cases.count else { return nil }
            return .enumeration(EnumType(cases: cases))
        }
        return nil
    }
}
