public import Foundation

/// Where the repository and this package's built executables are, for the tests that read
/// fixtures or run a product (`herald`, `herald-ledger-load`, the crash child) as a process.
public enum BuiltProducts {
    /// The repository root: three levels above this file (Tests/HeraldTestSupport/BuiltProducts.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The absolute path of `relative` under the repository root.
    public static func path(_ relative: String) -> String {
        repositoryRoot.appendingPathComponent(relative).path
    }

    /// The built executable `name`: beside the test bundle (SwiftPM builds both into one
    /// directory, whatever the scratch path or configuration), else in `.build/debug`; nil when
    /// it was not built.
    public static func executable(_ name: String) -> String? {
        var candidates: [URL] = []
        for start in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments.first ?? "")] {
            var directory = start.deletingLastPathComponent()
            for _ in 0 ..< 4 {
                candidates.append(directory.appendingPathComponent(name))
                directory = directory.deletingLastPathComponent()
            }
        }
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug/\(name)"))
        return candidates.map(\.path).first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: path)
        }
    }
}
