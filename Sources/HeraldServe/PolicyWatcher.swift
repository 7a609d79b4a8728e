#if Server
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the registry's bundles: every `interval` those whose files changed (modification time
/// or size), and all of them on SIGHUP. Stops at graceful shutdown.
struct PolicyWatcher: Service {
    let registry: PolicyRegistry
    let interval: Duration
    let logger: Logger
    /// Whether to trap SIGHUP (the CLI's server does; in-process tests do not).
    let trapsHangup: Bool

    func run() async throws {
        let signals = trapsHangup ? await UnixSignalsSequence(trapping: .sighup) : nil
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                if let signals {
                    group.addTask {
                        for await _ in signals {
                            if Task.isCancelled { break }
                            logger.info("SIGHUP: reloading every policy")
                            registry.reload(force: true, trigger: "SIGHUP")
                        }
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        do { try await Task.sleep(for: interval) } catch { break }
                        registry.reload(force: false, trigger: "file change")
                    }
                }
                await group.waitForAll()
            }
        }
    }
}
#endif
