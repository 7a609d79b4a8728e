#if Server
import ArgumentParser
import Foundation
import HeraldServe
import HeraldStore
import Logging

/// `herald serve <policies-dir> --store <url>`: the sidecar (docs/serve.md).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve every policy bundle under a directory over HTTP (JSON), with a ledger store.",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise; a non-loopback address needs --tokens. \
            SIGHUP (or a changed file) reloads the policies; SIGTERM stops accepting, finishes the \
            requests in flight and closes the store. Logs are JSON lines on standard error. See docs/serve.md.
            Exit codes: 0 stopped cleanly, 64 bad usage (a bad address, tokens file, directory or store).
            """
    )

    @Argument(help: ArgumentHelp("The directory of policy bundles (policies/), or one bundle directory.", valueName: "policies-dir"))
    var policiesDirectory: String

    @Option(help: ArgumentHelp("The ledger store: `memory:`, `sqlite:PATH` or `postgres://…`.", valueName: "url"))
    var store: String

    @Option(help: ArgumentHelp("The address to listen on, host:port.", valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("A file of bearer tokens, one a line; required off loopback.", valueName: "file"))
    var tokens: String?

    @Option(name: .customLong("decision-log"), help: ArgumentHelp("Append one JSON line per decision to this file.", valueName: "file"))
    var decisionLog: String?

    @Option(name: .customLong("max-body"), help: "The largest request body, in bytes.")
    var maxBody = 1 << 20

    @Option(name: .customLong("max-depth"), help: "The deepest JSON nesting a request may have.")
    var maxDepth = 32

    @Option(help: ArgumentHelp("Seconds a request may take before it is answered 503.", valueName: "seconds"))
    var timeout = 10.0

    @Option(name: .customLong("read-timeout"),
            help: ArgumentHelp("Seconds a client may take to send a request before it is answered 408.", valueName: "seconds"))
    var readTimeout = 10.0

    @Option(name: .customLong("max-connections"),
            help: "The most connections open at once (default: the file descriptor limit less 64, at least half of it).")
    var maxConnections: Int?

    @Option(name: .customLong("reload-interval"), help: ArgumentHelp("Seconds between checks of the policy files.", valueName: "seconds"))
    var reloadInterval = 1.0

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func run() async throws {
        // Before anything is served: handlers then run on the event loop that read their request
        // (HeraldServer.runTasksOnEventLoops, docs/serve.md), unless the store writes its file on
        // the caller's thread (SQLite): a commit or a checkpoint would then stall every
        // connection of that loop.
        if case .sqlite = try? StoreLocation(parsing: store) {} else { _ = HeraldServer.runTasksOnEventLoops() }
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level `\(logLevel)`; use trace, debug, info, notice, warning, error or critical")
        }
        LoggingSystem.bootstrap { label in
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "herald.serve")
        let descriptors = Self.raiseDescriptorLimit()
        logger.notice("file descriptor limit", metadata: [
            "soft": .stringConvertible(descriptors.soft), "hard": .stringConvertible(descriptors.hard),
        ])
        do {
            var configuration = ServeConfiguration(policiesDirectory: policiesDirectory)
            configuration.listen = try ListenAddress(parsing: listen)
            configuration.tokens = try tokens.map { path throws(ServeSetupError) in try BearerTokens.load(path) }
            configuration.decisionLogPath = decisionLog
            configuration.maxBodyBytes = maxBody
            configuration.maxJSONDepth = maxDepth
            configuration.requestTimeout = .milliseconds(Int(timeout * 1000))
            configuration.readTimeout = .milliseconds(Int(readTimeout * 1000))
            configuration.maxConnections = maxConnections ?? Self.defaultMaxConnections(descriptors: descriptors.soft)
            configuration.reloadInterval = .milliseconds(Int(reloadInterval * 1000))
            let store = try await StoreOpener.open(self.store)
            do {
                let server = try HeraldServer(configuration: configuration, store: store, logger: logger)
                try await server.run()
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            logger.notice("store closed; exiting")
        } catch let error as ServeSetupError {
            Terminal.writeError("error: \(error)\n")
            throw ExitCode(64)
        } catch let error as StoreError {
            Terminal.writeError("\(error)\n")
            throw ExitCode(64)
        }
    }

    /// Room under the descriptor limit for the store, the policy files and the runtime's own
    /// (libdispatch traps when it cannot open a file): 64 descriptors, or half of a small limit.
    static func defaultMaxConnections(descriptors: UInt64) -> Int {
        guard descriptors > 0 else { return 1_000 }
        let limit = Int(clamping: descriptors)
        return max(1, limit / 2, limit - 64)
    }

    /// Raises the soft limit on open files to the hard limit (each connection holds one; the
    /// usual soft default of 1,024 runs out under load while the hard limit allows far more).
    /// - Returns: the limits now in force.
    static func raiseDescriptorLimit() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }
}
#endif
