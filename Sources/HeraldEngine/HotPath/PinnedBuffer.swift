/// Elements copied once into memory that their owner, a class, frees in its `deinit`
/// (`free()`): reading them through `buffer` counts no reference, where reading an array
/// property of a class retains the array.
struct PinnedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Element>

    init(_ elements: [Element]) {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = memory.initialize(from: elements)
        buffer = UnsafeBufferPointer(memory)
    }

    /// Destroys and frees the elements; the owner calls this once, in its `deinit`.
    func free() {
        let memory = UnsafeMutableBufferPointer(mutating: buffer)
        memory.deinitialize()
        memory.deallocate()
    }
}
