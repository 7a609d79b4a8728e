#if Server
import Foundation
public import HeraldStore
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSyntax
public import Logging

/// Every bundle under the policies directory, compiled, by name. Reads take the current table
/// under a lock (a dictionary copy: no compile ever happens under it); a reload compiles outside
/// the lock and swaps the entry in, so a decision in flight finishes on the engine it took. A
/// bundle that fails to compile keeps serving its last good engine; the failure shows in its
/// `lastLoad`, in the log with its diagnostics and in `herald_policy_reloads_total{result="failed"}`.
public final class PolicyRegistry: Sendable {
    public let directory: String
    let table = Locked<[String: ServedPolicy]>([:])
    let reloading = Locked<Void>(())
    let logger: Logger
    let metrics: ServeMetrics
    let store: any LedgerStore

    /// Loads every bundle under `directory` once.
    /// - Throws: `ServeSetupError.policiesDirectory` when it is not a directory or holds no bundle.
    public init(directory: String, store: any LedgerStore, logger: Logger, metrics: ServeMetrics) throws(ServeSetupError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .policiesDirectory(directory, "it is not a directory")
        }
        self.directory = directory
        self.logger = logger
        self.metrics = metrics
        self.store = store
        reload(force: true, trigger: "start")
        if table.withLock({ $0.isEmpty }) {
            throw .policiesDirectory(directory, "it holds no bundle (a directory with `.yaml` files, such as `policies/<app>`)")
        }
    }

    /// The policy served as `name`, or nil.
    public func policy(_ name: String) -> ServedPolicy? {
        table.withLock { $0[name] }
    }

    /// Every policy, sorted by name.
    public var policies: [ServedPolicy] {
        table.withLock { Array($0.values) }.sorted { $0.name < $1.name }
    }

    /// Whether every bundle has a good compile to serve.
    public var allServing: Bool {
        table.withLock { $0.values.allSatisfy { $0.engine != nil } }
    }

    /// Recompiles the bundles whose files changed (all of them when `force`), adds new bundle
    /// directories and drops removed ones. One reload runs at a time.
    /// - Returns: the names recompiled.
    @discardableResult
    public func reload(force: Bool, trigger: String) -> [String] {
        reloading.withLock { _ in
            let found = Self.bundleDirectories(directory)
            let current = table.withLock { $0 }
            var recompiled: [String] = []
            for (name, path) in found.sorted(by: { $0.key < $1.key }) {
                let previous = current[name]
                if !force, let previous, previous.directory == path,
                   previous.fingerprint == Self.stamps(previous.fingerprint.map(\.path), directory: path) {
                    continue
                }
                let next = compile(name: name, directory: path, previous: previous, trigger: trigger)
                table.withLock { $0[name] = next }
                recompiled.append(name)
            }
            let removed = Set(current.keys).subtracting(found.keys)
            if !removed.isEmpty {
                table.withLock { table in for name in removed { table[name] = nil } }
                for name in removed.sorted() {
                    logger.notice("policy removed", metadata: ["policy": .string(name)])
                }
            }
            return recompiled
        }
    }

    /// Compiles one bundle; on failure keeps the previous engine.
    func compile(name: String, directory path: String, previous: ServedPolicy?, trigger: String) -> ServedPolicy {
        let now = Int(Date().timeIntervalSince1970)
        let result = Validator.validate(path, lints: false)
        let files = Array(result.sources.keys)
        let fingerprint = Self.stamps(files, directory: path)
        var served = previous ?? ServedPolicy(name: name, directory: path, engine: nil, digest: nil, loadedAt: nil,
                                              lastLoad: .init(ok: false, at: now, digest: nil, errors: []), fingerprint: [])
        served.directory = path
        served.fingerprint = fingerprint
        if let bundle = result.bundle {
            served.engine = Engine(bundle: bundle)
            served.sources = result.sources
            served.recorder = served.engine.map { DecisionRecorder(engine: $0, store: store) }
            served.digest = bundle.digest
            served.loadedAt = now
            served.lastLoad = .init(ok: true, at: now, digest: bundle.digest, errors: [])
            metrics.reload(policy: name, ok: true)
            logger.info("policy loaded", metadata: [
                "policy": .string(name), "digest": .string(bundle.digest), "trigger": .string(trigger),
                "previous_digest": .string(previous?.digest ?? ""),
            ])
        } else {
            let errors = result.diagnostics.items.filter { $0.severity == .error }
            let renderer = DiagnosticRenderer(format: .text, color: false)
            let lines = errors.isEmpty ? ["no bundle files found"] : errors.map { renderer.render([$0]).split(separator: "\n").first.map(String.init) ?? $0.message }
            served.lastLoad = .init(ok: false, at: now, digest: nil, errors: lines)
            metrics.reload(policy: name, ok: false)
            logger.error("policy failed to compile; still serving the last good version", metadata: [
                "policy": .string(name), "trigger": .string(trigger),
                "serving_digest": .string(served.digest ?? "none"),
                "diagnostics": .array(lines.map { .string($0) }),
            ])
        }
        metrics.policyServing(policy: name, serving: served.engine != nil, ok: served.lastLoad.ok)
        return served
    }

    /// The bundles under `directory`: the directory itself when it holds `.yaml` files (named by its
    /// last path component), else each subdirectory that does.
    static func bundleDirectories(_ directory: String) -> [String: String] {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        if hasYAML(root.path) { return [root.lastPathComponent: directory] }
        var found: [String: String] = [:]
        for child in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where !child.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(child)
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue, hasYAML(path) {
                found[child] = path
            }
        }
        return found
    }

    static func hasYAML(_ directory: String) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
    }

    /// Stamps of the given files plus every `.yaml` file directly in `directory` (so a new file is
    /// noticed), sorted by path. A missing file has modification time and size -1.
    static func stamps(_ files: [String], directory: String) -> [FileStamp] {
        var paths = Set(files)
        for child in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where child.hasSuffix(".yaml") || child.hasSuffix(".yml") {
            paths.insert((directory as NSString).appendingPathComponent(child))
        }
        return paths.sorted().map { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return FileStamp(path: path, modified: -1, size: -1) }
            let modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
            return FileStamp(path: path, modified: modified, size: Int(info.st_size))
        }
    }
}
#endif
