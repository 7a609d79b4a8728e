#if Server
import HTTPTypes
import HeraldContract
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The rules below the router, one handler per connection between NIO's HTTP codec and
/// Hummingbird (docs/serve.md § Safe defaults):
/// - a request must arrive, head to end, within `readTimeout` (else 408 and close: the idle
///   timeout never fires while a byte a second keeps coming);
/// - `Expect: 100-continue` is answered at once, unless the body is over `maxBodyBytes` or an
///   earlier response on the connection is still owed;
/// - a parse error between requests is answered 400 `malformed_http` in JSON, then the
///   connection closed (one inside a body fails the route's read: `JSONErrorMiddleware`).
final class HTTPGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let readTimeout: TimeAmount
    let maxBodyBytes: Int

    /// Requests read whose response's end has not been written yet.
    private var owed = 0
    /// Whether the response to the oldest owed request has started.
    private var responding = false
    /// The pending read deadline of the request being read.
    private var deadline: Scheduled<Void>?
    /// Once this handler has answered and is closing the connection: later writes are dropped.
    private var closing = false

    init(readTimeout: TimeAmount, maxBodyBytes: Int) {
        self.readTimeout = readTimeout
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            owed += 1
            deadline?.cancel()
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: readTimeout) { [self] in
                deadline = nil
                timedOut(context: context)
            }
            if owed == 1, wantsContinue(head) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if closing {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational:
            responding = true
        case .end:
            owed = max(0, owed - 1)
            responding = false
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, owed == 0 else {
            context.fireErrorCaught(error)
            return
        }
        answerAndClose(context: context, APIError.malformedHTTP(error))
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func timedOut(context: ChannelHandlerContext) {
        guard !closing else { return }
        if responding {
            closing = true
            context.close(promise: nil)
        } else {
            answerAndClose(context: context, APIError(.requestTimeout, code: "request_timeout",
                                                     message: "the request was not received within \(readTimeout.nanoseconds / 1_000_000_000) s"))
        }
    }

    /// Writes `error` as the connection's last response and closes it.
    private func answerAndClose(context: ChannelHandlerContext, _ error: APIError) {
        var body = ByteBuffer()
        body.writeString(error.json.serialized())
        body.writeString("\n")
        var fields = error.headers
        fields[.connection] = "close"
        fields[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
        closing = true
    }

    /// `Expect: 100-continue` with a body the server would read.
    private func wantsContinue(_ head: HTTPRequest) -> Bool {
        guard let expect = head.headerFields[.expect], expect.lowercased() == "100-continue" else { return false }
        if let declared = head.headerFields[.contentLength].flatMap(Int.init), declared > maxBodyBytes { return false }
        return true
    }
}

extension APIError {
    /// A request NIO's HTTP parser refused (`HTTPParserError`).
    static func malformedHTTP(_ error: any Error) -> APIError {
        APIError(.badRequest, code: "malformed_http", message: "the request is not valid HTTP/1.1: \(error)")
    }
}
#endif
