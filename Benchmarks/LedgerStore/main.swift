#if Server
// herald-ledger-bench: decide-and-record throughput and latency of a ledger store with a
// seeded ledger (docs/performance.md § Ledger stores).
//
//   herald-ledger-bench --store URL [--users 100000] [--rows 10] [--decisions 20000] [--tasks 1] [--seed-tasks 8]
//                       [--server-pid PID] [--settle 120] [--nio-executor 1]
//
// Seeds USERS users with ROWS entries each (one unit of work per user, type `seed`, delivering
// over the 10 days before the run), then times DECISIONS decide-and-record calls (`ping`, a
// global cap of 3 a day, each for a random user, TASKS at a time, each call with an
// idempotency key) and prints the calls per second and the p50/p90/p99/max latency of one call,
// and the CPU time they took: this process's (getrusage: user + system) and, with --server-pid
// (PostgreSQL's postmaster, the first line of DATA/postmaster.pid), the server's (/proc: the
// postmaster's own and reaped children's time plus its live children's, read before and after).
// With --server-pid, the timing starts once the server has settled after the seeding (under 2 %
// of a core over a second, waiting at most --settle seconds): autovacuum of the seeded rows
// would otherwise be counted.
// The store is used only through `LedgerStore`, so any store URL works. By default
// (`--nio-executor 1`) the tasks run on NIO's event loops, installed as Swift Concurrency's
// global executor, as `herald serve` runs its handlers (`HeraldServer.runTasksOnEventLoops`):
// a unit resumes on the event loop that read PostgreSQL's answer instead of hopping to the
// cooperative pool. `--nio-executor 0` leaves the tasks on the cooperative pool.
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldPostgres
import HeraldSQLite
import HeraldStore
import NIOCore
import NIOPosix

var settings = ["--users": 100_000, "--rows": 10, "--decisions": 20_000, "--tasks": 1, "--seed-tasks": 8, "--server-pid": 0, "--settle": 120, "--nio-executor": 1]
var storeURL = ""
/// Prints the usage to stderr and exits: 0 when asked for it, 64 (EX_USAGE) after `problem`.
func usage(_ problem: String? = nil) -> Never {
    var text = problem.map { "herald-ledger-bench: \($0)\n" } ?? ""
    text += "usage: herald-ledger-bench --store URL [--users N] [--rows N] [--decisions N] [--tasks N] [--seed-tasks N]\n"
    text += "                           [--server-pid PID] [--settle SECONDS] [--nio-executor 0|1]\n"
    FileHandle.standardError.write(Data(text.utf8))
    exit(problem == nil ? 0 : 64)
}
var arguments = Array(CommandLine.arguments.dropFirst()).makeIterator()
while let flag = arguments.next() {
    if flag == "--help" || flag == "-h" { usage() }
    guard let value = arguments.next() else { usage("`\(flag)` needs a value") }
    if flag == "--store" { storeURL = value; continue }
    guard settings[flag] != nil else { usage("unknown flag `\(flag)`") }
    guard let number = Int(value), number >= 0 else { usage("`\(flag)` needs a whole number, not `\(value)`") }
    settings[flag] = number
}
guard !storeURL.isEmpty else { usage("--store URL is required") }
let users = settings["--users"]!, rows = settings["--rows"]!, decisions = settings["--decisions"]!, tasks = settings["--tasks"]!
let seedTasks = settings["--seed-tasks"]!
for flag in ["--users", "--decisions", "--tasks", "--seed-tasks"] where settings[flag]! < 1 { usage("`\(flag)` must be at least 1") }
guard settings["--nio-executor"]! <= 1 else { usage("`--nio-executor` is 0 or 1") }
if settings["--nio-executor"] == 1, !NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() {
    fatalError("could not install NIO's event loops as the global executor")
}

let yaml = """
    app: { name: Bench, scheme: bench }
    channels:
      push: { kind: push }
    categories:
      news: { title: News }
    routes:
      home: { url: "bench://home" }
    types:
      ping:
        category: news
        channels: [push]
        params: { id: string }
        idempotencyKey: "ping:{id}"
        copy: { body: "Ping {id}." }
      seed:
        category: news
        channels: [push]
        params: { id: string }
        idempotencyKey: "seed:{id}"
        copy: { body: "Seed {id}." }
    defaults: { timezone: UTC }
    caps:
      - { id: daily, scope: global, max: 3, per: day }
    """
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
try yaml.write(to: directory.appendingPathComponent("bundle.yaml"), atomically: true, encoding: .utf8)
let validation = Validator.validate(directory.path, lints: false)
try? FileManager.default.removeItem(at: directory)
guard let bundle = validation.bundle else { fatalError("\(validation.diagnostics)") }

let store: any LedgerStore
switch try StoreLocation(parsing: storeURL) {
case .sqlite(let path): store = try SQLiteLedgerStore(path: path)
case .memory: store = InMemoryLedgerStore()
case .postgres(let url):
    var options = PostgresLedgerStore.Options()
    options.connections = max(tasks, seedTasks)
    store = try await PostgresLedgerStore(url: url, options: options)
}
let recorder = DecisionRecorder(engine: Engine(bundle: bundle), store: store)
let start = 1_773_050_400  // 2026-03-09T10:00:00Z
let clock = ContinuousClock()

// Seeding: one unit per user, its entries spread over the 10 days before `start`.
let seeded = clock.now
try await withThrowingTaskGroup(of: Void.self) { group in
    for task in 0 ..< seedTasks {
        group.addTask {
            for user in stride(from: task, to: users, by: seedTasks) {
                let entries = (0 ..< rows).map { j in
                    HistoryEntry(key: "seed:\(user):\(j)", type: "seed", channel: "push",
                                 deliverAt: start - 10 * 86_400 + (j * 86_400 * 10) / max(rows, 1) + user % 3600, status: .delivered)
                }
                _ = try await store.commit(user: "u\(user)", read: LedgerRead(since: start), requestKey: nil, now: start - 1) { _ in
                    (LedgerProposal(insert: entries, response: "{}"), 0)
                }
            }
        }
    }
    try await group.waitForAll()
}
let seedSeconds = Double((clock.now - seeded).components.attoseconds) / 1e18 + Double((clock.now - seeded).components.seconds)
FileHandle.standardError.write(Data("seeded \(users * rows) rows over \(users) users in \(String(format: "%.1f", seedSeconds)) s\n".utf8))

/// This process's CPU seconds so far (user + system).
func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// CPU seconds of process `pid` and everything it started: its own and its reaped children's
/// time (/proc/PID/stat fields 14-17) plus its live children's own (fields 14-15). Linux only; 0 without a pid.
func serverCPU(_ pid: Int) -> Double {
    guard pid > 0 else { return 0 }
    func fields(_ pid: String) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3.
        return text[text.index(after: close)...].split(separator: " ")
    }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var total = 0.0
    if let own = fields("\(pid)") {
        total += [11, 12, 13, 14].reduce(0.0) { $0 + (Double(own[$1]) ?? 0) }   // utime stime cutime cstime
    }
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
        guard let child = fields(entry), child.count > 12, Int(child[1]) == pid else { continue }  // ppid
        total += (Double(child[11]) ?? 0) + (Double(child[12]) ?? 0)
    }
    return total / ticks
}

// Settling: seeding 100,000 units leaves the server work of its own (autovacuum and analyze of
// the new rows, a checkpoint writing them out), which would otherwise land in the measured
// window and in its CPU. With --server-pid, wait until the server used under 2 % of a core
// over a second, for at most `--settle` seconds.
let serverPID = settings["--server-pid"]!
if serverPID > 0 {
    let settleStart = clock.now
    var previous = serverCPU(serverPID)
    while clock.now - settleStart < .seconds(settings["--settle"]!) {
        try await Task.sleep(for: .seconds(1))
        let now = serverCPU(serverPID)
        defer { previous = now }
        if now - previous < 0.02 { break }
    }
    let waited = clock.now - settleStart
    FileHandle.standardError.write(Data("server settled after \(waited.components.seconds) s\n".utf8))
}

// Measuring.
let cpuBefore = processCPU(), serverBefore = serverCPU(serverPID)
let measured = clock.now
let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
    for task in 0 ..< tasks {
        group.addTask {
            var generator = SystemRandomNumberGenerator()
            var latencies: [Duration] = []
            latencies.reserveCapacity(decisions / tasks + 1)
            for i in stride(from: task, to: decisions, by: tasks) {
                let user = Int.random(in: 0 ..< users, using: &generator)
                let at = start + i
                let request = DecisionRequest(type: "ping", at: at, now: at, user: ["id": .string("u\(user)")],
                                              permission: .granted, params: ["id": .string("b\(i)")])
                let began = clock.now
                _ = try await recorder.decide(request, idempotencyKey: "bench-\(i)")
                latencies.append(clock.now - began)
            }
            return latencies
        }
    }
    var all: [Duration] = []
    for try await part in group { all += part }
    return all.sorted()
}
let elapsed = clock.now - measured
let cpu = processCPU() - cpuBefore, serverSeconds = serverCPU(serverPID) - serverBefore
func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
func percentile(_ p: Double) -> Double { milliseconds(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) }
let perSecond = Double(latencies.count) / (milliseconds(elapsed) / 1000)
print(String(format: "%@: %d rows over %d users, %d decisions, %d task(s): %.0f/s, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms",
             storeURL.hasPrefix("postgres") ? "postgres" : storeURL, users * rows, users, latencies.count, tasks, perSecond,
             percentile(0.50), percentile(0.90), percentile(0.99), milliseconds(latencies.last!)))
print(String(format: "cpu: herald %.2f s (%.0f decisions per CPU-second)", cpu, Double(latencies.count) / cpu)
      + (serverPID > 0 ? String(format: ", server %.2f s; both %.0f decisions per CPU-second", serverSeconds,
                                Double(latencies.count) / (cpu + serverSeconds)) : ""))
if let postgres = store as? PostgresLedgerStore { await postgres.close() }
#endif
