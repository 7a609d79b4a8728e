#if Server
import NIOCore
import NIOPosix

extension HeraldServer {
    /// Makes NIO's shared event loops (the ones Hummingbird serves on) Swift Concurrency's
    /// global executor, so a request's handler runs on the event loop thread that read it
    /// instead of hopping to the cooperative pool and back: one thread switch fewer each way
    /// for every request (NIO's
    /// `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`).
    ///
    /// Call at most once per process, before the server starts: `herald serve` does. Servers
    /// started inside another process (the tests) leave Swift Concurrency's pool alone.
    /// - Returns: whether the event loops were installed.
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
#endif
