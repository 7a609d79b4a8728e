import HeraldPolicy

/// How a declared (non-optional) scalar converts from JSON, resolved once per field or param
/// so that converting a request's value reads a byte instead of the `ValueType`; `other`
/// (optionals, enumerations, times, dates, lists) takes the general conversion.
enum LeafKind: UInt8, Sendable {
    case bool, int, duration, string, other

    init(_ type: ValueType) {
        switch type {
        case .bool: self = .bool
        case .int: self = .int
        case .duration: self = .duration
        case .string: self = .string
        default: self = .other
        }
    }
}
