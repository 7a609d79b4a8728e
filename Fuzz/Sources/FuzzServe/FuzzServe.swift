// Fuzz target: `herald serve`'s routes (HeraldServe's router with its middleware, over an
// in-memory ledger and the shipped policies), called the way HummingbirdTesting's `.router`
// mode calls them: a `Request` handed to the router's responder, no socket. The input is an
// HTTP request in short: a first line `METHOD /path?query`, header lines `Name: value`, an
// empty line, then the body (FuzzSupport `RouteInput`). Every answer must be below 500 and, when
// it says JSON, be JSON; an error must carry its code. See docs/fuzzing.md.
import Dispatch
import FuzzSupport
import HeraldContract
import HeraldServe
import HeraldStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    Seeds.writeIfRequested(routeSeeds)
    _ = Routes.current()
    return 0
}

/// Each shipped scenario request sent to decide, explain, plan, reconcile and prompt of its
/// policy; an event and the ledger, delete and admin routes.
func routeSeeds() -> [[UInt8]] {
    let json = ["Content-Type": "application/json"]
    var seeds: [RouteInput] = []
    for decide in ShippedBundle.scenarioRequests() {
        let base = "/v1/policies/\(ShippedBundle.declaring(typeOf(decide)).name)/"
        seeds.append(RouteInput(method: "POST", target: base + "decide", headers: json, body: decide))
        seeds.append(RouteInput(method: "POST", target: base + "decide", headers: json.merging(["Idempotency-Key": "k-1"]) { a, _ in a }, body: decide))
        seeds.append(RouteInput(method: "POST", target: base + "explain", headers: json, body: decide))
        for request in Seeds.requests(madeOf: decide) {
            seeds.append(RouteInput(method: "POST", target: base + request.route, headers: json, body: request.body))
        }
    }
    let event = #"{"user":"u-1","key":"N-MAINT-DUE-TODAY:2026-03-09","status":"opened","at":"2026-03-09T12:00:00Z"}"#
    seeds.append(RouteInput(method: "POST", target: "/v1/events", headers: json, body: Array(event.utf8)))
    for target in ["/v1/users/u-1/ledger", "/v1/users/a%2Fb/ledger", "/v1/policies", "/healthz", "/readyz", "/metrics"] {
        seeds.append(RouteInput(method: "GET", target: target, headers: [:], body: []))
        seeds.append(RouteInput(method: "HEAD", target: target, headers: [:], body: []))
    }
    seeds.append(RouteInput(method: "DELETE", target: "/v1/users/u-1", headers: [:], body: []))
    return seeds.map(\.bytes)
}

func typeOf(_ request: [UInt8]) -> String {
    (try? JSON.parse(String(decoding: request, as: UTF8.self)))?["type"]?.stringValue ?? ""
}

/// The server the inputs are sent to, made again every `Routes.lifetime` inputs so that the
/// in-memory ledger stays small.
final class Routes: Sendable {
    static let lifetime = 5_000
    static let shared = Mutex<(routes: Routes, used: Int)?>(nil)

    let responder: RouterResponder<ServeRequestContext>
    let logger: Logger
    /// The channel every request's context names (a channel holds itself through its pipeline
    /// until closed: one a request would be one leaked a request).
    let channel = NIOAsyncTestingChannel()

    init() {
        var logger = Logger(label: "herald.fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        var configuration = ServeConfiguration(policiesDirectory: Fuzz.repositoryRoot + "/policies")
        configuration.reloadQuietPeriod = .zero
        do {
            let server = try HeraldServer(configuration: configuration, store: InMemoryLedgerStore(), logger: logger)
            responder = server.router().buildResponder()
        } catch {
            Fuzz.fail("herald serve does not start on the shipped policies: \(error)")
        }
        self.logger = logger
    }

    static func current() -> Routes {
        let (routes, retired) = shared.withLock { state -> (Routes, Routes?) in
            if let (routes, used) = state, used < lifetime {
                state = (routes, used + 1)
                return (routes, nil)
            }
            let routes = Routes()
            defer { state = (routes, 1) }
            return (routes, state?.routes)
        }
        if let retired { waitFor { try? await retired.channel.close() } }
        return routes
    }

    /// The response's status, headers and body.
    func respond(_ request: Request) async -> (HTTPResponse, [UInt8]) {
        let context = ServeRequestContext(source: .init(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // JSONErrorMiddleware turns every error into an answer: nothing reaches here.
            Fuzz.fail("the router threw \(error)")
        }
        let written = Written()
        do {
            try await response.body.write(BodyCollector(written: written))
        } catch {
            Fuzz.fail("writing the response body threw \(error)")
        }
        return (response.head, written.bytes.withLock { $0 })
    }
}

/// What a response body wrote.
final class Written: Sendable {
    let bytes = Mutex<[UInt8]>([])
}

/// A response body writer that keeps what is written.
struct BodyCollector: ResponseBodyWriter {
    let written: Written
    func write(_ buffer: ByteBuffer) async throws {
        written.bytes.withLock { $0 += buffer.readableBytesView }
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Runs `body` on Swift's concurrency pool and waits for it on libFuzzer's thread (which is
/// not one of the pool's).
func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = RouteInput(Fuzz.bytes(data, size)),
          let method = HTTPRequest.Method(input.method) else { return 0 }
    var fields = HTTPFields()
    for (name, value) in input.headers {
        guard let name = HTTPField.Name(name) else { continue }
        fields.append(HTTPField(name: name, value: value))
    }
    let head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: input.target, headerFields: fields)
    let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: input.body)))
    let routes = Routes.current()
    let (response, body) = waitFor { await routes.respond(request) }

    let what = "\(input.method) \(input.target.prefix(200))"
    guard response.status.code < 500 else {
        Fuzz.fail("\(what) answered \(response.status.code): \(String(decoding: body.prefix(500), as: UTF8.self))")
    }
    guard response.headerFields[.contentType]?.hasPrefix("application/json") == true, !body.isEmpty else { return 0 }
    guard let json = try? JSON.parse(String(decoding: body, as: UTF8.self)) else {
        Fuzz.fail("\(what) answered \(response.status.code) with a body that is not JSON: \(String(decoding: body.prefix(500), as: UTF8.self))")
    }
    if response.status.code >= 400, json["error"]?["code"]?.stringValue == nil {
        Fuzz.fail("\(what) answered \(response.status.code) without an error code: \(String(decoding: body.prefix(500), as: UTF8.self))")
    }
    return 0
}
