/// Named entries (types, categories, routes, …) in declaration order, with lookup by name.
///
/// Declaration order is the order of the merged bundle: files sorted by name, then document
/// order within a file. Iteration is in that order, so everything built from a bundle is
/// deterministic.
public struct NamedTable<Value: Sendable>: Sendable, Sequence {
    /// Names in declaration order.
    public private(set) var names: [String] = []
    /// Values in declaration order (like `names`): iterating or listing them copies nothing.
    public private(set) var values: [Value] = []
    /// Name → position in `names` and `values`.
    private var positions: [String: Int] = [:]

    public init() {}

    public init(_ entries: [(String, Value)]) {
        for (name, value) in entries { insert(value, named: name) }
    }

    /// Adds an entry; a name already present keeps its first value.
    public mutating func insert(_ value: Value, named name: String) {
        guard positions[name] == nil else { return }
        positions[name] = names.count
        names.append(name)
        values.append(value)
    }

    public subscript(name: String) -> Value? {
        positions[name].map { values[$0] }
    }

    public func contains(_ name: String) -> Bool { positions[name] != nil }

    public var count: Int { names.count }
    public var isEmpty: Bool { names.isEmpty }

    public func makeIterator() -> IndexingIterator<[Value]> { values.makeIterator() }
}
