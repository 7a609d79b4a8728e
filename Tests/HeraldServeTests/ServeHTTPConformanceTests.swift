#if Server
import Foundation
import HeraldContract
import Testing

/// What `herald serve` answers below the router, on a real socket (`HTTPGuardHandler`,
/// `JSONErrorMiddleware`): client mistakes are 400s in JSON, a request must arrive within the
/// read timeout, `Expect: 100-continue` is honoured.
@Suite(.serialized) struct ServeHTTPConformanceTests {
    static let decideHead = "POST /v1/policies/handz/decide HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"

    /// Runs `body` against a `herald serve` process (read timeout 2 s).
    static func withServer(_ body: (Int) async throws -> Void) async throws {
        let binary = try #require(ServeProcess.heraldBinary, "the herald binary is built beside the tests")
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeProcess(binary: binary, arguments: [
            "serve", directory + "/policies", "--store", "memory:", "--listen", "127.0.0.1:0", "--read-timeout", "2",
        ])
        defer { server.kill() }
        try await body(try await server.waitForPort())
        #expect(!server.stderr.contains("unexpected error"), "\(server.stderr.suffix(2_000))")
    }

    /// The status line and the JSON error code of a whole answer.
    static func answer(_ text: String) -> (status: Int, code: String?) {
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, (try? JSON.parse(body.trimmingCharacters(in: .whitespacesAndNewlines)))?["error"]?["code"]?.stringValue)
    }

    static let refusals: [(name: String, request: String)] = [
        ("bad chunk size zz", decideHead + "Transfer-Encoding: chunked\r\n\r\nzz\r\n"),
        ("negative chunk size", decideHead + "Transfer-Encoding: chunked\r\n\r\n-5\r\n"),
        ("2^72 chunk size", decideHead + "Transfer-Encoding: chunked\r\n\r\n1000000000000000000\r\n"),
        ("chunk size ;;", decideHead + "Transfer-Encoding: chunked\r\n\r\n;;\r\n"),
        ("100 KB request line", "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n"),
        ("5,000 headers", "GET /healthz HTTP/1.1\r\nHost: localhost\r\n" + (0..<5_000).map { "X-\($0): y\r\n" }.joined() + "\r\n"),
        ("control byte in a header", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX: a\u{1}b\r\n\r\n"),
        ("raw space in the path", "GET /a b HTTP/1.1\r\nHost: localhost\r\n\r\n"),
        ("two Content-Lengths", decideHead + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
        ("unknown method", "FROB /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    ]

    @Test func clientMistakesAre400sInJSON() async throws {
        try await Self.withServer { port in
            for (name, request) in Self.refusals {
                let socket = try RawSocket(port: port)
                try? socket.send(request)
                let (status, code) = Self.answer(socket.read(within: 5))
                #expect(status == 400, "\(name)")
                #expect(code == "malformed_http", "\(name)")
            }
            // A body shorter than its Content-Length, then a half-close.
            let socket = try RawSocket(port: port)
            try socket.send(Self.decideHead + "Content-Length: 100\r\n\r\n{}")
            shutdown(socket.descriptor, Int32(SHUT_WR))
            let (status, code) = Self.answer(socket.read(within: 5))
            #expect(status == 400)
            #expect(code == "malformed_http")
        }
    }

    /// Without `--tokens`: a DNS-rebinding page's `Host` is refused, loopback names are served.
    @Test func tokenlessServersAnswerLoopbackHostsOnly() async throws {
        try await Self.withServer { port in
            for (host, status) in [("evil.example:\(port)", 421), ("localhost:\(port)", 200), ("127.0.0.1:\(port)", 200), ("[::1]:\(port)", 200)] {
                let socket = try RawSocket(port: port)
                try socket.send("GET /v1/users/u-1/ledger HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(try socket.readResponse().status == status, "\(host)")
            }
        }
    }

    @Test func aSlowBodyIsTimedOut() async throws {
        try await Self.withServer { port in
            let socket = try RawSocket(port: port)
            try socket.send(Self.decideHead + "Content-Length: 100\r\n\r\n")
            let started = ContinuousClock.now
            var text = ""
            for _ in 0..<10 where text.isEmpty {
                try? socket.send(" ")
                text = socket.read(within: 1)
            }
            #expect(Self.answer(text) == (408, "request_timeout"), "\(text)")
            // 2 s, and then some: the whole suite shares two cores.
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }

    @Test func expectContinueIsAnsweredAtOnce() async throws {
        try await Self.withServer { port in
            let body = try ServeFixtures.dueToday()
            let socket = try RawSocket(port: port)
            try socket.send(Self.decideHead + "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            // Before any byte of the body (curl waits 1 s for it, then sends the body anyway).
            #expect(socket.read(within: 2).hasPrefix("HTTP/1.1 100 Continue\r\n"))
            try socket.send(body)
            #expect(try socket.readResponse().status == 200)
            // A body over the limit gets no 100: the route answers 413 without reading it.
            let large = try RawSocket(port: port)
            try large.send(Self.decideHead + "Expect: 100-continue\r\nContent-Length: 99999999\r\n\r\n")
            #expect(Self.answer(large.read(within: 2)).status == 413)
        }
    }
}
#endif
