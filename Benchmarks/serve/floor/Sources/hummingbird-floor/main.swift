// hummingbird-floor PORT: `GET /healthz` answers `ok`; `POST /v1/policies/{name}/decide` reads the
// body (up to 1 MiB) and answers a fixed 1 KB JSON object. No middleware, no logging, no metrics,
// no decision: what Hummingbird 2 alone costs a request on the machine (Benchmarks/serve/load.sh floor).
import Hummingbird
import NIOCore
import NIOPosix

guard CommandLine.arguments.count == 2, let port = Int(CommandLine.arguments[1]) else {
    fatalError("usage: hummingbird-floor PORT")
}
// Runs handlers on the event loops, as `herald serve` does (`HeraldServer.runTasksOnEventLoops`).
_ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
let answer = ByteBuffer(string: #"{"action":"schedule","padding":""# + String(repeating: "x", count: 1_000) + #""}"#)
let router = Router()
router.get("healthz") { _, _ in "ok" }
router.post("/v1/policies/:name/decide") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 1 << 20)
    return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: answer))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
