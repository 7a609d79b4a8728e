// `HeraldStoreBenchmark [rows users decisions]…`: for each (rows, users), seeds a fresh SQLite
// ledger (WAL) with `rows` entries spread over `users` users and the 30 days before the run,
// then times `decisions` decide-and-record units (DecisionRecorder over SQLiteLedgerStore), one
// at a time on one task (HERALD_BENCH_TASKS=N: N at once), for random users. Prints throughput per wall second and per CPU second
// (the process's user + system time: "per core"), and p50/p90/p99/max latency.
// HERALD_BENCH_NO_KEY=1 leaves the idempotency keys out (no stored responses).
// Default: 10,000 rows over 1,000 users, then 1,000,000 rows over 100,000 users, 20,000 decisions each.
import Foundation
import GRDB
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSQLite
import HeraldStore

let bundleYAML = """
    app: { name: Bench, scheme: bench }
    channels:
      push: { kind: push }
    categories:
      news: { title: News }
      social: { title: Social }
    routes:
      home: { url: "bench://home" }
    types:
      ping:
        category: news
        channels: [push]
        params: { id: string }
        idempotencyKey: "ping:{id}"
        caps: [ { max: 20, per: day } ]
        copy: { body: "Ping {id}." }
      like:
        category: social
        channels: [push]
        params: { id: string }
        subject: "{id}"
        idempotencyKey: "like:{id}"
        copy: { body: "Someone liked {id}." }
    defaults: { timezone: Europe/Berlin, quietHours: { start: "23:00", end: "06:00" } }
    quietHours: { during: defer }
    caps:
      - { id: daily, scope: global, max: 40, per: day }
      - { id: weekly, scope: category, match: [social], max: 100, per: week }
      - { id: burst, scope: global, max: 5, per: 1m, over: defer }
    """

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-store-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
try bundleYAML.write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
guard let bundle = Validator.validate(directory.path, lints: false).bundle else { fatalError("the benchmark bundle does not compile") }
let engine = Engine(bundle: bundle)

var runs: [(rows: Int, users: Int, decisions: Int)] = []
/// Prints the usage line to stderr and exits 64 (EX_USAGE).
func usage(_ problem: String? = nil) -> Never {
    if let problem { FileHandle.standardError.write(Data("HeraldStoreBenchmark: \(problem)\n".utf8)) }
    FileHandle.standardError.write(Data("usage: HeraldStoreBenchmark [ROWS USERS DECISIONS]... (positive integers, in threes)\n".utf8))
    exit(problem == nil ? 0 : 64)
}
let words = Array(CommandLine.arguments.dropFirst())
if words.contains("--help") || words.contains("-h") { usage() }
let args = words.map { word -> Int in
    guard let number = Int(word), number > 0 else { usage("`\(word)` is not a positive integer") }
    return number
}
guard args.count % 3 == 0 else { usage("\(args.count) numbers given: they come in threes") }
for i in stride(from: 0, to: args.count, by: 3) { runs.append((args[i], args[i + 1], args[i + 2])) }
if runs.isEmpty { runs = [(10_000, 1_000, 20_000), (1_000_000, 100_000, 20_000)] }

let start = 1_773_050_400  // 2026-03-09T10:00:00Z

/// Warms up (500 units), then times `decisions` units for random users, `tasks` at a time
/// (each task deciding unit i for i ≡ task mod tasks, one after another).
/// Not isolated to the main actor (as the top-level code is): the units run on the cooperative
/// pool, as a server's request handlers call them, not with a hop from the main actor and back
/// around every unit (which cost a fifth of the CPU measured when the loop was top-level code).
nonisolated func timedUnits(recorder: DecisionRecorder, users: Int, decisions: Int, useKeys: Bool, tasks: Int) async throws
    -> (latencies: [Double], scheduled: Int, responseBytes: Int, wall: Double, cpu: Double)
{
    let start = 1_773_050_400
    // Warm up the caches and the statement cache.
    for i in 0 ..< 500 {
        let request = DecisionRequest(type: "ping", at: start, now: start, user: ["id": .string("user\(i % users)")],
                                      permission: .granted, params: ["id": .string("warm\(i)")])
        _ = try await recorder.decide(request)
    }
    let cpu0 = cpuSeconds()
    let wall0 = DispatchTime.now().uptimeNanoseconds
    let shares: [Share] = try await withThrowingTaskGroup(of: Share.self) { group in
        for task in 0 ..< tasks {
            group.addTask {
                try await timedShare(recorder: recorder, users: users, decisions: decisions, useKeys: useKeys, first: task, step: tasks)
            }
        }
        var shares: [Share] = []
        for try await share in group { shares.append(share) }
        return shares
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - wall0) / 1e9
    let cpu = cpuSeconds() - cpu0
    var latencies: [Double] = []
    var scheduled = 0
    var responseBytes = 0
    for share in shares {
        latencies += share.latencies
        scheduled += share.scheduled
        responseBytes += share.responseBytes
    }
    return (latencies, scheduled, responseBytes, wall, cpu)
}

/// What one task of `timedUnits` measured.
struct Share: Sendable {
    var latencies: [Double] = []
    var scheduled = 0
    var responseBytes = 0
}

/// Units `first`, `first + step`, … below `decisions`, one after another.
nonisolated func timedShare(recorder: DecisionRecorder, users: Int, decisions: Int, useKeys: Bool, first: Int, step: Int) async throws -> Share {
    let start = 1_773_050_400
    var generator = SystemRandomNumberGenerator()
    var share = Share()
    share.latencies.reserveCapacity(decisions / step + 1)
    for i in stride(from: first, to: decisions, by: step) {
        let user = Int.random(in: 0 ..< users, using: &generator)
        let now = start + 60 + i
        let request = DecisionRequest(type: i % 3 == 0 ? "like" : "ping", at: now, now: now,
                                      user: ["id": .string("user\(user)")], permission: .granted,
                                      params: ["id": .string("b\(i)")])
        let t0 = DispatchTime.now().uptimeNanoseconds
        let result = try await recorder.decide(request, idempotencyKey: useKeys ? "req-\(i)" : nil)
        share.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        if !result.recorded.isEmpty { share.scheduled += 1 }
        share.responseBytes += result.response.utf8.count
    }
    return share
}
// HERALD_BENCH_NO_KEY=1: no idempotency keys (nothing but the entry is written).
// HERALD_BENCH_TASKS=N: N units in flight at once (default 1), as a server's concurrent requests:
// the store's group commit carries the units that wait for the writer in one transaction.
let tasks = max(1, Int(ProcessInfo.processInfo.environment["HERALD_BENCH_TASKS"] ?? "") ?? 1)
let useKeys = ProcessInfo.processInfo.environment["HERALD_BENCH_NO_KEY"] != "1"
for run in runs {
    let path = directory.appendingPathComponent("ledger-\(run.rows).db").path
    // Seed: one transaction of plain inserts through the store's own schema.
    _ = try SQLiteLedgerStore(path: path)
    let seedStart = Date()
    let queue = try DatabaseQueue(path: path)
    var generator = SystemRandomNumberGenerator()
    try queue.write { db in
        let insert = try db.makeStatement(sql: """
            INSERT INTO entry (user, key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at)
            VALUES (?, ?, ?, NULL, 'push', ?, ?, NULL, ?, ?)
            """)
        let statuses = ["delivered", "opened", "dismissed", "delivered"]
        for i in 0 ..< run.rows {
            let at = start - Int.random(in: 0 ..< 30 * 86_400, using: &generator)
            try insert.execute(arguments: ["user\(i % run.users)", "seed:\(i)", i % 3 == 0 ? "like" : "ping", at,
                                           statuses[i % 4], at, at])
        }
    }
    try queue.close()
    let seeded = Date().timeIntervalSince(seedStart)
    let store = try SQLiteLedgerStore(path: path)
    let recorder = DecisionRecorder(engine: engine, store: store)
    let (unsorted, scheduled, responseBytes, wall, cpu) = try await timedUnits(
        recorder: recorder, users: run.users, decisions: run.decisions, useKeys: useKeys, tasks: tasks)
    let latencies = unsorted.sorted()
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let counts = store.writerCounts
    print(String(format: "%d task(s), %.1f units a transaction; ", tasks, Double(counts.units) / Double(max(1, counts.transactions))),
          terminator: "")
    print(String(format: "rows %d users %d (seeded in %.1f s, %.0f MB): %d decide-and-record in %.2f s wall, %.2f s CPU; "
                     + "%.0f/s wall, %.0f/s per CPU-second; %d recorded; responses %d bytes on average; latency ms p50 %.3f p90 %.3f p99 %.3f max %.2f",
                 run.rows, run.users, seeded, Double(size) / 1e6, run.decisions, wall, cpu,
                 Double(run.decisions) / wall, Double(run.decisions) / cpu, scheduled, responseBytes / run.decisions,
                 percentile(latencies, 0.5), percentile(latencies, 0.9), percentile(latencies, 0.99), latencies.last ?? 0),
          terminator: "")
    let checkpoints = store.checkpointCounts
    print("; checkpoints \(checkpoints.background) beside the writer (\(checkpoints.catchUp) catching up), \(checkpoints.byWriter) by it; "
          + "\(latencies.count { $0 > 10 }) units over 10 ms")
}
