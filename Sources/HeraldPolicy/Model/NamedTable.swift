/// Named entries (types, categories, routes, …) in declaration order, with lookup by name.
///
/// Declaration order is the order of the merged bundle: files sorted by name, then document
/// order within a file. Iteration is in that order, so everything built from a bundle is
/// deterministic.
public struct NamedTable<Value: Sendable>: Sendable, Sequence {
    /// Names in declaration order.
    public private(set) var names: [String] = []
    private var storage: [String: Value] = [:]

    public init() {}

    public init(_ entries: [(String, Value)]) {
        for (name, value) in entries { insert(value, named: name) }
    }

    /// Adds an entry; a name already present keeps its first value.
    public mutating func insert(_ value: Value, named name: String) {
        guard storage[name] == nil else { return }
        names.append(name)
        storage[name] = value
    }

    public subscript(name: String) -> Value? { storage[name] }

    public func contains(_ name: String) -> Bool { storage[name] != nil }

    public var count: Int { names.count }
    public var isEmpty: Bool { names.isEmpty }

    /// Values in declaration order.
    public var values: [Value] { names.map { storage[$0]! } }

    public func makeIterator() -> IndexingIterator<[Value]> { values.makeIterator() }
}
