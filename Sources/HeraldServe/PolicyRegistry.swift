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
///
/// A reload reads a bundle only once its files have been left alone for `quietPeriod` (a file
/// cut mid-write can be a valid, shorter policy); until then it keeps serving what it has. A
/// directory that cannot be listed (out of file descriptors) keeps every loaded policy.
public final class PolicyRegistry: Sendable {
    public let directory: String
    let table = Locked<[String: ServedPolicy]>([:])
    /// Held for a whole reload; also the bundles a forced reload (SIGHUP) still owes, because
    /// their files were changing.
    let reloading = Locked<Set<String>>([])
    let logger: Logger
    let metrics: ServeMetrics
    let store: any LedgerStore
    let quietPeriod: Duration

    /// Loads every bundle under `directory` once (without waiting for quiet files).
    /// - Throws: `ServeSetupError.policiesDirectory` when it is not a directory or holds no bundle.
    public init(directory: String, store: any LedgerStore, logger: Logger, metrics: ServeMetrics,
                quietPeriod: Duration = .seconds(1)) throws(ServeSetupError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .policiesDirectory(directory, "it is not a directory")
        }
        self.directory = directory
        self.logger = logger
        self.metrics = metrics
        self.store = store
        self.quietPeriod = quietPeriod
        reload(force: true, trigger: "start", now: nil)
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
    /// directories and drops removed ones. One reload runs at a time. A bundle with a file
    /// modified less than `quietPeriod` before `now` is left for a later reload (a forced one
    /// is owed: the next reload compiles it once its files are quiet).
    /// - Returns: the names recompiled.
    @discardableResult
    public func reload(force: Bool, trigger: String) -> [String] {
        reload(force: force, trigger: trigger, now: Date())
    }

    /// `reload(force:trigger:)` at `now`, the wall clock compared with the files' modification
    /// times (nil: read the files whatever their age).
    @discardableResult
    func reload(force: Bool, trigger: String, now: Date?) -> [String] {
        reloading.withLock { owed in
            let found: [String: String]
            do {
                found = try Self.bundleDirectories(directory)
            } catch {
                logger.error("cannot list the policies directory; keeping every loaded policy", metadata: [
                    "directory": .string(directory), "error": .string("\(error)"), "trigger": .string(trigger),
                ])
                return []
            }
            let current = table.withLock { $0 }
            var recompiled: [String] = []
            for (name, path) in found.sorted(by: { $0.key < $1.key }) {
                let previous = current[name]
                let files = previous?.fingerprint.map(\.path) ?? []
                let stamps = Self.stamps(files, directory: path)
                if !force, !owed.contains(name), let previous, previous.directory == path, previous.fingerprint == stamps {
                    continue
                }
                if let now, !Self.quiet(stamps, now: now, period: quietPeriod) {
                    if force { owed.insert(name) }
                    logger.info("policy files are changing; reloading once they are quiet", metadata: [
                        "policy": .string(name), "trigger": .string(trigger),
                    ])
                    continue
                }
                owed.remove(name)
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
    /// - Throws: when a directory cannot be listed (it is then not known which bundles exist).
    static func bundleDirectories(_ directory: String) throws -> [String: String] {
        let manager = FileManager.default
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        if try hasYAML(root.path) { return [root.lastPathComponent: directory] }
        var found: [String: String] = [:]
        for child in try manager.contentsOfDirectory(atPath: directory) where !child.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(child)
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue, try hasYAML(path) {
                found[child] = path
            }
        }
        return found
    }

    static func hasYAML(_ directory: String) throws -> Bool {
        try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
    }

    /// Whether no file of `stamps` was modified within `period` before `now`.
    static func quiet(_ stamps: [FileStamp], now: Date, period: Duration) -> Bool {
        let nowNanoseconds = Int(now.timeIntervalSince1970 * 1_000_000_000)
        let periodNanoseconds = Int(period.components.seconds) * 1_000_000_000 + Int(period.components.attoseconds / 1_000_000_000)
        return stamps.allSatisfy { $0.modified < 0 || nowNanoseconds - $0.modified >= periodNanoseconds }
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
