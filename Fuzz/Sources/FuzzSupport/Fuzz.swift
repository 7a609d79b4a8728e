import Foundation

/// What every fuzz target shares: how an invariant fails and where the repository is.
public enum Fuzz {
    /// Stops the run on a broken invariant. libFuzzer catches the trap, saves the input as a
    /// crash artifact and prints its stack (scripts/fuzz.sh turns off Swift's own backtracer,
    /// which would otherwise hold the process for up to 30 s per crash).
    public static func fail(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("fuzz invariant: " + message(), file: file, line: line)
    }

    /// The repository's root directory, found from this file's path at build time
    /// (`Fuzz/Sources/FuzzSupport/Fuzz.swift`): the targets read the shipped bundles from it.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The input as an array (libFuzzer's buffer is only valid during the call).
    public static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Splits the input at its first NUL byte: the text a target parses, and the bytes that
    /// choose run-time values for it (empty when there is no NUL).
    public static func split(_ bytes: [UInt8]) -> (text: [UInt8], values: [UInt8]) {
        guard let nul = bytes.firstIndex(of: 0) else { return (bytes, []) }
        return (Array(bytes[..<nul]), Array(bytes[(nul + 1)...]))
    }
}
