#if Server
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// With more connections than file descriptors, `herald serve` neither spins nor dies: it stops
/// accepting at its connection limit, below the descriptor limit (`AcceptLimitHandler`; at the
/// limit itself libdispatch traps), keeps its policies and serves once connections close.
@Suite struct ServeDescriptorLimitTests {
    /// The CPU seconds (user + system) the process has used.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return (Double(fields[11])! + Double(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func outOfDescriptorsTheServerWaitsAndKeepsItsPolicies() async throws {
        let binary = try #require(ServeProcess.heraldBinary, "the herald binary is built beside the tests")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { return }
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // prlimit execs the server in its own process: a soft and hard limit of 128.
        let server = try ServeProcess(binary: "/usr/bin/prlimit", arguments: [
            "--nofile=128:128", binary, "serve", directory + "/policies", "--store", "memory:", "--listen", "127.0.0.1:0",
            "--reload-interval", "0.2",
        ])
        defer { server.kill() }
        let port = try await server.waitForPort()
        var sockets: [RawSocket] = []
        for _ in 0..<200 { sockets.append(try RawSocket(port: port)) }
        try await Task.sleep(for: .seconds(1))
        let pid = server.process.processIdentifier
        try #require(server.isRunning, "the server exited (\(server.terminationStatus)): \(server.stderr)")
        let before = try Self.cpuSeconds(pid)
        try await Task.sleep(for: .seconds(3))
        let used = try Self.cpuSeconds(pid) - before
        #expect(used < 1, "the server used \(used) s of CPU in 3 s at its connection limit")
        #expect(server.stderr.contains("connection limit reached"))
        #expect(server.stderr.contains("\"max_connections\":\"64\""))
        #expect(!server.stderr.contains("out of file descriptors"))
        sockets.removeAll()
        try await Task.sleep(for: .seconds(1.5))
        let socket = try RawSocket(port: port)
        try socket.send("GET /v1/policies HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let response = try socket.readResponse()
        #expect(response.status == 200)
        #expect(response.body.contains("\"handz\""))
        #expect(!server.stderr.contains("policy removed"))
    }
}
#endif
