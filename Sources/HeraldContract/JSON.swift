internal import HeraldEngine
/// A JSON value, as exchanged with callers of the engine (requests in, decisions out).
///
/// Objects keep the key order they were parsed or built in, so error messages and pretty
/// output can follow the caller's text; the writer sorts keys anyway, so equal values always
/// serialize to identical bytes. Equality ignores object key order and distinguishes `int`
/// from `double` (`1` and `1.0` are different values).
public enum JSON: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number (always finite when parsed).
    case double(Double)
    case string(String)
    case array([JSON])
    /// Members in order; keys are unique (the parser rejects duplicates).
    case object([Member])

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSON

        public init(_ key: String, _ value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The value of `key` when this is an object that has it.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var elements: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var intValue: Int? {
        if case .int(let i) = self { return i }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind of value, as named in error messages (`expected a string, got an array`).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Compact serialization with sorted keys.
    public var description: String { serialized() }

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            // The same keys in the same order (the usual case): one pass.
            if a.indices.allSatisfy({ a[$0].key == b[$0].key }) {
                return a.indices.allSatisfy { a[$0].value == b[$0].value }
            }
            return a.allSatisfy { member in
                b.first(where: { $0.key == member.key }).map { $0.value == member.value } ?? false
            }
        default: return false
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral, ExpressibleByDictionaryLiteral
{
    /// An object in the literal's order; a later duplicate key replaces the earlier value.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var members: [Member] = []
        for (key, value) in elements {
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = value
            } else {
                members.append(Member(key, value))
            }
        }
        self = .object(members)
    }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .double(value) }
}
