/// Elements copied once into memory this value owns and frees when it is destroyed: reading
/// them through `buffer` counts no reference, where reading an array property of a class
/// retains the array.
///
/// Invariant: the memory lives exactly as long as the value. A `PinnedBuffer` is
/// `~Copyable` with its own `deinit`, so it cannot be copied (two owners of one allocation)
/// nor freed twice; its owner (a table, a plan, a schema node) keeps it in a `let` and
/// `buffer` is valid while the owner is borrowed.
struct PinnedBuffer<Element>: ~Copyable {
    private let memory: UnsafeMutableBufferPointer<Element>

    init(_ elements: [Element]) {
        memory = .allocate(capacity: elements.count)
        _ = memory.initialize(from: elements)
    }

    deinit {
        memory.deinitialize()
        memory.deallocate()
    }

    /// The elements, valid while this buffer (and so its owner) is alive.
    var buffer: UnsafeBufferPointer<Element> {
        @inline(__always) get { UnsafeBufferPointer(memory) }
    }

    var count: Int { memory.count }
}

// The elements are written once, in `init`, and only read after.
extension PinnedBuffer: @unchecked Sendable where Element: Sendable {}

/// Objects an owner keeps alive (in an array it holds), pinned as unretained references:
/// the caps stage walks a type's cap plans with `withElement` and counts no reference.
///
/// Invariant: every object is also held strongly by the owner of this value (`TypeTable`
/// keeps `capPlans` next to `capPlanRefs`), so an unretained reference is valid for as long
/// as this value is, and `withElement` lends it only for the closure.
struct UnownedReferences<Object: AnyObject & Sendable>: ~Copyable {
    private let references: PinnedBuffer<Unmanaged<Object>>

    /// Pins `objects`, which the caller keeps alive as long as this value.
    init(keptAlongside objects: [Object]) {
        references = PinnedBuffer(objects.map(Unmanaged.passUnretained))
    }

    var count: Int { references.count }

    /// Runs `body` with object `index` borrowed.
    @inline(__always)
    func withElement<R>(_ index: Int, _ body: (Object) -> R) -> R {
        assert(index >= 0 && index < count, "UnownedReferences.withElement(\(index)) of \(count)")
        return references.buffer[index]._withUnsafeGuaranteedRef(body)
    }
}

// The objects are Sendable and only read.
extension UnownedReferences: @unchecked Sendable {}
