import Foundation

/// Admits one unit of work at a time to the store's writer connection, in arrival order.
///
/// A unit that finds the gate open runs at once, on its caller's thread; one that finds it held
/// suspends (its continuation waits here, no thread does) until the unit before it leaves. So
/// the writer never runs on a thread that waits for another unit of this process, and the
/// unit itself needs no hop to GRDB's writer queue and back (docs/store.md § SQLite).
///
/// The state is guarded by an `NSLock`, a pthread mutex, which ThreadSanitizer understands.
final class SQLiteWriterGate: @unchecked Sendable {
    private let lock = NSLock()
    /// Whether a unit holds the gate (handing it to a waiter keeps it held).
    private var held = false
    /// The suspended units, oldest first from `head`.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Waits (suspended) until this caller holds the gate. Every `enter` is followed by one `leave`.
    func enter() async {
        if lock.withLock({ () -> Bool in
            if held { return false }
            held = true
            return true
        }) {
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = lock.withLock { () -> Bool in
                if !held {
                    held = true
                    return true
                }
                waiters.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the gate to the oldest waiter, or opens it.
    func leave() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard head < waiters.count else {
                held = false
                waiters.removeAll(keepingCapacity: true)
                head = 0
                return nil
            }
            let next = waiters[head]
            head += 1
            if head >= 64, head * 2 >= waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            return next
        }
        next?.resume()
    }
}
