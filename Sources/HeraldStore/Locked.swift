import Foundation

/// A value behind an `NSLock`, with `Mutex`'s call shape (`withLock { state in … }`), for the
/// state the stores and the server share between threads.
///
/// Why not Synchronization's `Mutex`: on Linux it hands the lock over through a futex inside
/// its library, which ThreadSanitizer does not see, so a contended `Mutex` makes it report
/// races that are not there (it did for the PostgreSQL store's connection list and the
/// server's deadlines). `NSLock` is a pthread mutex, which ThreadSanitizer intercepts; it costs
/// the same here (the server's CPU a request did not change).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
