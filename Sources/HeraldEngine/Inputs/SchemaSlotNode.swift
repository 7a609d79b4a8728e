package import HeraldPolicy

/// The `state` or `user` schema resolved to field slots, once per engine: a request reader
/// walks its input against this tree and stores each value at its leaf's slot.
package final class SchemaSlotNode: Sendable {
    package enum Child: Sendable {
        case object(SchemaSlotNode)
        case value(SchemaSlotLeaf)
    }

    /// The dotted path of this object (`state.maintenance`).
    package let path: String
    package let children: [String: Child]
    /// The children with their names' UTF-8 lengths: a schema object has a handful of fields,
    /// and comparing the lengths first costs less than hashing every member's name.
    private let entries: [(name: String, length: Int, child: Child)]

    /// The child named `name`.
    @inline(__always)
    package func child(_ name: String) -> Child? {
        guard entries.count <= 16 else { return children[name] }
        let length = name.utf8.count
        for entry in entries where entry.length == length && entry.name == name { return entry.child }
        return nil
    }

    init(schema: [String: SchemaNode], path: [String], slots: [[String]: Int]) {
        self.path = path.joined(separator: ".")
        var children: [String: Child] = [:]
        for (name, node) in schema {
            let childPath = path + [name]
            switch node {
            case .object(let inner):
                children[name] = .object(SchemaSlotNode(schema: inner, path: childPath, slots: slots))
            case .value(let type):
                // Every declared leaf has a slot; one without would be a compiler bug, and
                // then the value is read (type-checked) and dropped.
                children[name] = .value(SchemaSlotLeaf(slot: slots[childPath] ?? -1, type: type, path: childPath.joined(separator: ".")))
            }
        }
        self.children = children
        entries = children.keys.sorted().map { ($0, $0.utf8.count, children[$0]!) }
    }
}

/// A declared leaf of the `state`/`user` schema: its slot in the engine's fields, its declared
/// type and its dotted path (for errors).
package final class SchemaSlotLeaf: Sendable {
    package let slot: Int
    package let type: ValueType
    package let path: String

    init(slot: Int, type: ValueType, path: String) {
        self.slot = slot
        self.type = type
        self.path = path
    }
}
