import HeraldPolicy

/// The `state` or `user` schema resolved to value slots, once per engine: converting a
/// request walks its JSON against this tree, comparing each member's name with this
/// object's children and building no path unless it reports an error.
final class SchemaSlotNode: Sendable {
    enum Child: Sendable {
        case object(SchemaSlotNode)
        case value(SchemaSlotLeaf)
    }

    /// One child as converting reads it: everything in one place, the child node or leaf
    /// unretained.
    ///
    /// Invariant: the node whose `entries` hold an entry keeps its child in `children`, so
    /// the unretained reference is valid while that node is; `withObject`/`withLeaf` lend it
    /// for the closure only.
    struct Entry: @unchecked Sendable {
        let name: String
        /// `name`'s UTF-8 length: a name is compared only when the lengths match, so most
        /// mismatches cost one integer comparison.
        let length: Int
        /// nil for a leaf.
        private let object: Unmanaged<SchemaSlotNode>?
        /// nil for an object.
        private let leaf: Unmanaged<SchemaSlotLeaf>?

        fileprivate init(name: String, child: Child) {
            self.name = name
            length = name.utf8.count
            switch child {
            case .object(let node):
                object = .passUnretained(node)
                leaf = nil
            case .value(let value):
                object = nil
                leaf = .passUnretained(value)
            }
        }

        var isObject: Bool { object != nil }

        /// Runs `body` with the child object, borrowed; the child must be an object.
        @inline(__always)
        func withObject<R>(_ body: (SchemaSlotNode) -> R) -> R { object!._withUnsafeGuaranteedRef(body) }

        /// Runs `body` with the child leaf, borrowed; the child must be a leaf.
        @inline(__always)
        func withLeaf<R>(_ body: (SchemaSlotLeaf) -> R) -> R { leaf!._withUnsafeGuaranteedRef(body) }
    }

    /// The dotted path of this object (`state.maintenance`).
    let path: String
    let children: [String: Child]
    /// The children sorted by name, in memory this node owns (read without counting a
    /// reference); small objects are searched by comparing names, which beats hashing each
    /// member's key.
    private let entries: PinnedBuffer<Entry>
    /// Name → index in `entries`, for objects with many children.
    private let indexOf: [String: Int]

    /// The child named `name`.
    @inline(__always)
    func child(_ name: String) -> Entry? {
        let entries = entries.buffer
        guard entries.count <= 12 else { return indexOf[name].map { entries[$0] } }
        let length = name.utf8.count
        for i in entries.indices where entries[i].length == length && entries[i].name == name { return entries[i] }
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
        let sorted = children.keys.sorted()
        entries = PinnedBuffer(sorted.map { Entry(name: $0, child: children[$0]!) })
        indexOf = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
    }
}

/// A declared leaf of the `state`/`user` schema: its slot in `Engine.fields`, its declared
/// type and its dotted path (for errors). A class, so walking a request retains one reference.
final class SchemaSlotLeaf: Sendable {
    let slot: Int
    let type: ValueType
    let kind: LeafKind
    let path: String

    init(slot: Int, type: ValueType, path: String) {
        self.slot = slot
        self.type = type
        kind = LeafKind(type)
        self.path = path
    }
}
