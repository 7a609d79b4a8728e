internal import HeraldEngine
public import HeraldSyntax

extension JSON {
    /// A YAML node as a contract value, by `PlainValue`'s rule for scalars (decimals are
    /// `double`): mappings are objects in document order, lists arrays. Test files and scenario
    /// files build their requests and expectations through this one conversion.
    public init(yaml node: YAMLNode) {
        switch node.kind {
        case .mapping(let pairs):
            self = .object(pairs.map { JSON.Member($0.key.value, JSON(yaml: $0.value)) })
        case .sequence(let items):
            self = .array(items.map(JSON.init(yaml:)))
        case .scalar(let scalar):
            switch PlainValue(scalar) {
            case .null: self = .null
            case .bool(let b): self = .bool(b)
            case .int(let n): self = .int(n)
            case .decimal(let d): self = .double(d)
            case .string(let s): self = .string(s)
            }
        }
    }
}
