#if Server
import Glibc
import Logging
import NIOCore

/// On the listening socket: when `accept` fails for want of file descriptors (EMFILE, ENFILE),
/// stops reading from it for `pause`, then tries again. NIO keeps the socket registered for
/// reading after a failed `accept`, so without this the event loop retries at once, in a tight
/// loop that holds a core until a connection closes (its `AcceptBackoffHandler` delays only
/// later reads).
final class AcceptPauseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel

    let pause: TimeAmount
    let logger: Logger
    private var paused = false

    init(pause: TimeAmount = .seconds(1), logger: Logger) {
        self.pause = pause
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !paused, let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE,
           let options = context.channel.syncOptions
        {
            paused = true
            logger.warning("out of file descriptors: not accepting connections for a second", metadata: [
                "error": .string("\(error)"),
            ])
            try? options.setOption(.autoRead, value: false)
            context.eventLoop.assumeIsolated().scheduleTask(in: pause) { [self] in
                paused = false
                try? context.channel.syncOptions?.setOption(.autoRead, value: true)
            }
        }
        context.fireErrorCaught(error)
    }
}
#endif
