public import HeraldSyntax
internal import HeraldContract
public import HeraldEngine
import HeraldPolicy

/// Reads a scenario file with Herald's strict YAML reader and checks it against the policy it
/// will run on, collecting every problem (H08xx, docs/diagnostics.md) rather than stopping at
/// the first.
public enum ScenarioLoader {
    /// What loading produced: the scenario when there were no errors, every diagnostic, and
    /// the source (for rendering them).
    public struct Result: Sendable {
        public var scenario: Scenario?
        public var diagnostics: Diagnostics
        public var source: SourceFile?
    }

    static let topKeys = ["name", "description", "users", "days", "start", "seed", "population", "triggers", "plan", "changes", "behaviour"]
    static let populationKeys = ["timezone", "permission", "prefs", "user", "state", "daily"]
    static let triggerKeys = ["type", "at", "perDay", "between", "times", "probability", "weekdays", "params", "subject"]
    static let planKeys = ["at", "horizon", "candidates"]
    static let candidateKeys = ["type", "at", "params"]
    static let changeKeys = ["day", "share", "prefs", "user", "state"]
    static let behaviourKeys = ["open", "dismiss", "categories"]
    static let reactionKeys = ["probability", "delay"]
    static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// Reads and checks the scenario at `path` for `engine`'s policy.
    public static func load(path: String, engine: Engine) -> Result {
        guard let bytes = readFile(path) else {
            var diagnostics = Diagnostics()
            diagnostics.error(.unreadableFile, "cannot read scenario `\(path)`", at: nil)
            return Result(scenario: nil, diagnostics: diagnostics, source: nil)
        }
        return load(SourceFile(path: path, bytes: bytes), engine: engine)
    }

    /// Reads and checks a scenario already in memory.
    public static func load(_ file: SourceFile, engine: Engine) -> Result {
        let read = YAMLReader.read(file)
        var reader = Reader(engine: engine, diagnostics: read.diagnostics)
        guard let root = read.root, !read.diagnostics.hasErrors else {
            if read.root == nil && !read.diagnostics.hasErrors {
                reader.diagnostics.error(.scenarioStructure, "a scenario file must be a mapping with `users`, `days` and `triggers`", at: nil)
            }
            return Result(scenario: nil, diagnostics: reader.diagnostics, source: file)
        }
        let scenario = reader.scenario(root, path: file.path)
        if !reader.diagnostics.hasErrors, let scenario {
            reader.diagnostics.append(contentsOf: Simulator.check(scenario, engine: engine))
        }
        return Result(scenario: reader.diagnostics.hasErrors ? nil : scenario, diagnostics: reader.diagnostics, source: file)
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, handle)
            if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
            if n < buffer.count { break }
            if bytes.count > YAMLLimits.standard.maxBytes { break }
        }
        return ferror(handle) == 0 ? bytes : nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
