#if Server
import Glibc
@testable import HeraldServe
import Logging
import NIOCore
import NIOEmbedded
import Testing

/// The listening socket's limits, on an embedded channel: accepted connections arrive as
/// child channels, and `autoRead` is what the handler turns off and on.
@Suite struct AcceptLimitHandlerTests {
    static func autoRead(_ channel: EmbeddedChannel) -> Bool? {
        channel.options.last { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool
    }

    @Test func atTheConnectionLimitAcceptingStopsUntilOneCloses() throws {
        let listener = EmbeddedChannel(handler: AcceptLimitHandler(maxConnections: 2, logger: Logger(label: "test")))
        let connections = [EmbeddedChannel(), EmbeddedChannel()]
        try listener.writeInbound(connections[0] as any Channel)
        #expect(Self.autoRead(listener) == nil)
        try listener.writeInbound(connections[1] as any Channel)
        #expect(Self.autoRead(listener) == false)
        _ = try connections[0].finish()
        listener.embeddedEventLoop.run()
        #expect(Self.autoRead(listener) == true)
        // Each accepted connection is passed on to the server's own handler.
        #expect(try listener.readInbound(as: (any Channel).self) != nil)
        _ = try connections[1].finish()
    }

    @Test func outOfDescriptorsAcceptingPausesForAWhile() throws {
        let handler = AcceptLimitHandler(maxConnections: 10, pause: .seconds(1), logger: Logger(label: "test"))
        let listener = EmbeddedChannel(handler: handler)
        listener.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept4"))
        #expect(Self.autoRead(listener) == false)
        #expect(throws: IOError.self) { try listener.throwIfErrorCaught() }
        listener.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(Self.autoRead(listener) == false)
        listener.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(Self.autoRead(listener) == true)
    }

    @Test func otherErrorsDoNotPause() throws {
        let listener = EmbeddedChannel(handler: AcceptLimitHandler(maxConnections: 10, logger: Logger(label: "test")))
        listener.pipeline.fireErrorCaught(IOError(errnoCode: ECONNABORTED, reason: "accept4"))
        #expect(Self.autoRead(listener) == nil)
        _ = try? listener.throwIfErrorCaught()
    }
}
#endif
