#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldTestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `herald serve` child process whose standard error (JSON log lines) is collected.
final class ServeProcess: Sendable {
    let process: Process
    private let log = Mutex("")

    init(binary: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        self.process = process
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if !data.isEmpty { self?.log.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        }
        try process.run()
    }

    var stderr: String { log.withLock { $0 } }
    var isRunning: Bool { process.isRunning }
    var terminationStatus: Int32 { process.terminationStatus }
    func terminate() { Glibc.kill(process.processIdentifier, SIGTERM) }
    func kill() { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

    /// The port of the `listening` log line (`bound` is NIO's address, `…:PORT`).
    func waitForPort() async throws -> Int {
        var port: Int?
        let found = try await Self.poll(seconds: 120) {
            for line in self.stderr.split(separator: "\n") where line.contains("\"listening\"") {
                if let json = try? JSON.parse(String(line)), let bound = json["bound"]?.stringValue,
                   let colon = bound.lastIndex(of: ":") {
                    port = Int(bound[bound.index(after: colon)...])
                }
            }
            return port != nil || !self.isRunning
        }
        guard found, let port else { throw ServeProcessError(message: "the server did not start: \(stderr)") }
        return port
    }

    /// Checks `condition` every 50 ms for up to `seconds`; whether it held.
    static func poll(seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try condition()
    }

    /// The built `herald` (BuiltProducts.executable).
    static var heraldBinary: String? { BuiltProducts.executable("herald") }
}

struct ServeProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
#endif
