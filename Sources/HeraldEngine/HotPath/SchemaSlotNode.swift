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
    /// the unretained reference is valid while that node is; only the walk below (in this
    /// file) reads it, lending each child to a closure.
    struct Entry: @unchecked Sendable {
        let name: String
        /// `name`'s UTF-8 length: a name is compared only when the lengths match, so most
        /// mismatches cost one integer comparison.
        let length: Int
        /// nil for a leaf.
        fileprivate let object: Unmanaged<SchemaSlotNode>?
        /// nil for an object.
        fileprivate let leaf: Unmanaged<SchemaSlotLeaf>?

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

extension ValueReader {
    /// Converts the members of `json` by the schema `node` into `slots`. With `userID`, the
    /// object is the user record: its `id` is not part of the schema and is read into
    /// `userID` when it is a string.
    mutating func object(_ json: JSON, node: SchemaSlotNode, into slots: SlotWriter, userID: UnsafeMutablePointer<String>?) {
        guard case .object(let members) = json else {
            fail(node.path, "an object", json)
            return
        }
        members.withUnsafeBufferPointer { members in
            for index in members.indices {
                if let userID, members[index].key.utf8.count == 2, members[index].key == "id" {
                    if case .string(let id) = members[index].value { userID.pointee = id }
                    continue
                }
                guard let child = node.child(members[index].key) else {
                    unknown(members[index].key, in: node)
                    continue
                }
                // The child is read through an unretained reference (the engine's schema tree
                // keeps it alive): converting a request counts no reference per member.
                if let inner = child.object {
                    inner._withUnsafeGuaranteedRef { inner in
                        object(members[index].value, node: inner, into: slots, userID: nil)
                    }
                } else if let leaf = child.leaf {
                    leaf._withUnsafeGuaranteedRef { leaf in
                        slots.set(leaf.slot, convert(members[index].value, kind: leaf.kind, as: leaf.type, path: leaf.path))
                    }
                }
            }
        }
    }
}
