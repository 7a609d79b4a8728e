import Foundation

/// Independent pieces of work spread over the machine's cores, with results in input order:
/// the outcome is the same as a sequential `map`, only sooner.
enum Concurrently {
    /// `items.map(transform)`, the calls running concurrently (sequentially for one item).
    static func map<Item: Sendable, Output: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Output) -> [Output] {
        guard items.count > 1 else { return items.map(transform) }
        let results = Slots<Output>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            results.set(index, transform(items[index]))
        }
        return results.values
    }

    /// One slot per iteration, each written once, under a lock.
    private final class Slots<Output>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Output?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: Output) {
            lock.lock()
            slots[index] = value
            lock.unlock()
        }

        var values: [Output] {
            lock.lock()
            defer { lock.unlock() }
            return slots.map { $0! }
        }
    }
}

/// A value handed to concurrent work that only reads it (or works on its own copy of it):
/// the compiler's tables hold YAML nodes and closures that are not declared `Sendable`, but
/// no chunk writes to what the others read.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
