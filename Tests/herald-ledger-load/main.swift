#if Server
// herald-ledger-load: decides a run of triggers for one user against a ledger store, in one
// process, for the tests that share a store between OS processes and for measuring a store
// (docs/store.md). Not part of the `herald` CLI: a test and benchmark driver.
//
//   herald-ledger-load --policy DIR --store URL --user U --triggers N
//                      [--shard I/P] [--start T] [--spacing S] [--keys K] [--requests R]
//
// Trigger i (0 ..< N; with --shard I/P only those with i % P == I) is a `ping` with id
// `n(i % K)` at T + i * S (both its `at` and `now`), sent with the idempotency key `req-(i % R)`.
// The policy must have a type `ping` with an `id` string param. Prints one JSON line:
// {"decided", "scheduled", "suppressed", "replayed", "failed", "errors": [first few]}.
// Exit 0 when no trigger failed, 1 otherwise, 64 on bad usage.
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldPostgres
import HeraldSQLite
import HeraldStore

struct Options {
    var policy = ""
    var store = ""
    var user = "u1"
    var triggers = 0
    var shard = (index: 0, count: 1)
    var start = 1_773_050_400
    var spacing = 600
    var keys = Int.max
    var requests = Int.max
}

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("herald-ledger-load: \(message)\nusage: herald-ledger-load --policy DIR --store URL --user U --triggers N [--shard I/P] [--start T] [--spacing S] [--keys K] [--requests R]\n".utf8))
    exit(64)
}

func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    while let flag = iterator.next() {
        guard let value = iterator.next() else { usage("`\(flag)` needs a value") }
        func number() -> Int {
            guard let number = Int(value) else { usage("`\(flag)` needs a number, not `\(value)`") }
            return number
        }
        switch flag {
        case "--policy": options.policy = value
        case "--store": options.store = value
        case "--user": options.user = value
        case "--triggers": options.triggers = number()
        case "--start": options.start = number()
        case "--spacing": options.spacing = number()
        case "--keys": options.keys = max(1, number())
        case "--requests": options.requests = max(1, number())
        case "--shard":
            let parts = value.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] > 0, (0 ..< parts[1]).contains(parts[0]) else { usage("`--shard` is I/P, such as 0/2") }
            options.shard = (parts[0], parts[1])
        default: usage("unknown flag `\(flag)`")
        }
    }
    if options.policy.isEmpty || options.store.isEmpty { usage("`--policy` and `--store` are required") }
    return options
}

func open(_ text: String) async throws -> any LedgerStore {
    switch try StoreLocation(parsing: text) {
    case .sqlite(let path): return try SQLiteLedgerStore(path: path)
    case .memory: return InMemoryLedgerStore()
    case .postgres(let url): return try await PostgresLedgerStore(url: url)
    }
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let validation = Validator.validate(options.policy, lints: false)
guard let bundle = validation.bundle else {
    FileHandle.standardError.write(Data(validation.diagnostics.map { "\($0)" }.joined(separator: "\n").utf8))
    exit(1)
}
var decided = 0, scheduled = 0, suppressed = 0, replayed = 0, failed = 0
var errors: [String] = []
do {
    let store = try await open(options.store)
    let recorder = DecisionRecorder(engine: Engine(bundle: bundle), store: store)
    for i in stride(from: options.shard.index, to: options.triggers, by: options.shard.count) {
        let at = options.start + i * options.spacing
        let request = DecisionRequest(type: "ping", at: at, now: at, user: ["id": .string(options.user)], permission: .granted,
                                      params: ["id": .string("n\(i % options.keys)")])
        do {
            let result = try await recorder.decide(request, idempotencyKey: "req-\(i % options.requests)")
            decided += 1
            if result.replayed {
                replayed += 1
            } else if result.decisions.contains(where: { $0.action == .schedule }) {
                scheduled += 1
            } else {
                suppressed += 1
            }
        } catch {
            failed += 1
            if errors.count < 5 { errors.append("\(error)") }
        }
    }
    if let postgres = store as? PostgresLedgerStore { await postgres.close() }
} catch {
    failed += 1
    errors.append("\(error)")
}
let list = errors.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
print("{\"decided\": \(decided), \"scheduled\": \(scheduled), \"suppressed\": \(suppressed), \"replayed\": \(replayed), \"failed\": \(failed), \"errors\": [\(list.joined(separator: ", "))]}")
exit(failed == 0 ? 0 : 1)
#endif
