#if Server
import Glibc
import Logging
import NIOCore

/// On the listening socket: stops accepting while `maxConnections` connections are open, so
/// connections never use up the process's file descriptors, and for `pause` after an `accept`
/// that failed for want of them (EMFILE, ENFILE, descriptors taken by something else). Either
/// way new connections wait in the listen backlog.
///
/// Running out matters beyond refused connections: libdispatch, which runs Swift's concurrency
/// threads on Linux, traps when it cannot open `/proc/<tid>/stat` to watch its workers. And
/// NIO keeps the socket registered for reading after a failed `accept`, so without the pause
/// the event loop would retry at once, in a tight loop.
final class AcceptLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    let maxConnections: Int
    let pause: TimeAmount
    let logger: Logger
    private var open = 0
    private var full = false
    private var paused = false

    init(maxConnections: Int, pause: TimeAmount = .seconds(1), logger: Logger) {
        self.maxConnections = maxConnections
        self.pause = pause
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        open += 1
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let (loop, listener) = (context.eventLoop, context.channel)
        connection.closeFuture.whenComplete { _ in
            loop.execute { handler.value.closed(listener: listener) }
        }
        if open >= maxConnections, !full {
            full = true
            logger.warning("connection limit reached: new connections wait in the listen backlog", metadata: [
                "max_connections": .stringConvertible(maxConnections),
            ])
            updateAutoRead(listener)
        }
        context.fireChannelRead(data)
    }

    private func closed(listener: any Channel) {
        open -= 1
        if full, open < maxConnections {
            full = false
            updateAutoRead(listener)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !paused, let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            paused = true
            logger.warning("out of file descriptors: not accepting connections for a second", metadata: [
                "error": .string("\(error)"),
            ])
            updateAutoRead(context.channel)
            let listener = context.channel
            context.eventLoop.assumeIsolated().scheduleTask(in: pause) { [self] in
                paused = false
                updateAutoRead(listener)
            }
        }
        context.fireErrorCaught(error)
    }

    /// Reads (accepts) only while neither limit holds.
    private func updateAutoRead(_ listener: any Channel) {
        try? listener.syncOptions?.setOption(.autoRead, value: !(full || paused))
    }
}
#endif
