import Foundation
import HeraldTestSupport

/// Where the repository and the built `herald` binary are, for tests that read fixtures or run
/// the command line.
enum TestSupport {
    /// The repository root.
    static var repositoryRoot: URL { BuiltProducts.repositoryRoot }

    static func path(_ relative: String) -> String {
        BuiltProducts.path(relative)
    }

    /// The built `herald` (BuiltProducts.executable).
    static var heraldBinary: String? { BuiltProducts.executable("herald") }

    typealias RunResult = ChildProcess.Result

    /// Runs `herald` with `arguments` in `directory`, with color off.
    static func runHerald(_ arguments: [String], in directory: String? = nil) throws -> RunResult {
        guard let binary = heraldBinary else { throw CocoaError(.fileNoSuchFile) }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return try ChildProcess.run(binary, arguments, in: directory, environment: environment)
    }

    /// A fresh empty temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
