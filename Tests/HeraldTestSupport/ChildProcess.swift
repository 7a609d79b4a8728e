import Foundation

/// Runs a program to its end and collects what it wrote, for tests.
///
/// Both pipes are read at once (stderr on another thread), so a child that writes a lot to
/// either never blocks on a full pipe. The child is reaped with `waitpid`, not through
/// `Process`'s termination monitoring: when the child starts a daemon beneath it (`pg_ctl
/// start`), Foundation on Linux did not notice the child's exit and `waitUntilExit()` waited
/// forever.
public enum ChildProcess {
    /// How a run ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments` (in `directory`, with `environment` when given).
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        var raw: Int32 = 0
        let status: Int32
        if waitpid(process.processIdentifier, &raw, 0) == process.processIdentifier {
            // Exited: the status is in bits 8–15; killed by a signal: 128 + the signal, as shells say.
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        } else {
            process.waitUntilExit()     // Foundation reaped it first
            status = process.terminationStatus
        }
        return Result(status: status, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// `run` on a dispatch thread, so an async test does not block its executor while it waits.
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String]? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try run(executable, arguments, in: directory, environment: environment) })
            }
        }
    }
}
