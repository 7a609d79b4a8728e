import Benchmark
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSyntax

var decideMetrics: [BenchmarkMetric] { [.wallClock, .throughput, .mallocCountTotal, .instructions] }
var fast: Benchmark.Configuration { Benchmark.Configuration(metrics: decideMetrics, warmupIterations: 100,
                                   maxDuration: .seconds(1), maxIterations: 200_000) }
/// A thousand decisions per sample, reported per decision: the harness's own cost per sample
/// (clock and allocation-counter reads, the closure call) is spread over the thousand, as a
/// service deciding in a loop sees it. Percentiles are then over 1,000-decision averages.
/// Allocations are not counted here (the single-decision benchmarks count them): counting
/// interposes on every malloc and free, which the hot loop would otherwise pay for.
var loop: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .throughput], warmupIterations: 5,
                                   scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 5_000) }
/// One decision per sample, timed only: the clock is read around each decision and nothing
/// else is. The instruction counter (`fast`) is reset and read through system calls right
/// before and after the timed decision, which on this VM evicts caches and branch history
/// and adds microseconds to each sample (see docs/performance.md, "Measurement").
var timedSingle: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .throughput], warmupIterations: 1_000,
                                          maxDuration: .seconds(1), maxIterations: 200_000) }
/// `slow` without counting allocations: counting interposes on every malloc and free, and a
/// 10,000-type catalog makes millions of them (the five bundles' counts show the rate).
/// Runs up to 10 s so that even the 10,000-type catalog (about 1 s a run) gets ten samples.
var timed: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .peakMemoryResident],
                                    warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 200) }
var slow: Benchmark.Configuration { Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                                   warmupIterations: 1, maxDuration: .seconds(2), maxIterations: 200) }

/// What a compiled bundle keeps: each iteration loads, compiles and validates a bundle and
/// builds its engine, which is then kept past the measured region, so the net unfreed bytes
/// (`memoryLeakedBytes`, the malloc interposer's count) are the engine's with its bundle.
var memory: Benchmark.Configuration { Benchmark.Configuration(metrics: [.memoryLeakedBytes, .mallocFreeDelta],
                                     warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 10) }

/// Engines kept alive after their benchmark's measured region (see `memory`).
final class KeptEngines: @unchecked Sendable {
    var engines: [Engine] = []
    init() { engines.reserveCapacity(64) }
}
let keptEngines = KeptEngines()

/// One decide benchmark per history size, both with the per-call index (`decide(_:now:)`) and
/// with the service's prebuilt index (`decide(_:ledger:now:)`).
func decideBenchmarks(_ label: String, engine: @escaping @Sendable () -> Engine,
                      sizes: [Int], types: [String],
                      request: @escaping @Sendable ([HistoryEntry]) -> DecisionRequest) {
    for size in sizes {
        Benchmark("decide \(label) h=\(size)", configuration: fast) { (benchmark: Benchmark, state: (Engine, DecisionRequest)) in
            let (engine, request) = state
            for _ in benchmark.scaledIterations { blackHole(engine.decide(request, now: request.now)) }
        } setup: {
            (engine(), request(Fixtures.history(size, types: types)))
        }
        Benchmark("decide+ledger \(label) h=\(size)", configuration: fast) { (benchmark: Benchmark, state: (Engine, DecisionRequest, LedgerIndex)) in
            let (engine, request, ledger) = state
            for _ in benchmark.scaledIterations { blackHole(engine.decide(request, ledger: ledger, now: request.now)) }
        } setup: {
            let e = engine()
            let r = request(Fixtures.history(size, types: types))
            return (e, r, e.ledger(r.history))
        }
    }
}

/// The Handz due-today decision with a kept 1,000-entry ledger and its hand-written baseline,
/// as `"\(prefix) decide+ledger …"` and `"\(prefix) baseline …"`.
func headlineBenchmarks(_ prefix: String, configuration: Benchmark.Configuration) {
    Benchmark("\(prefix) decide+ledger handz due-today h=1000", configuration: configuration) { (benchmark: Benchmark, state: (Engine, DecisionRequest, LedgerIndex)) in
        let (engine, request, ledger) = state
        for _ in benchmark.scaledIterations { blackHole(engine.decide(request, ledger: ledger, now: request.now)) }
    } setup: {
        let r = Fixtures.handzDueToday(history: Fixtures.history(1_000, types: Fixtures.handzTypes))
        return (Fixtures.handz, r, Fixtures.handz.ledger(r.history))
    }
    Benchmark("\(prefix) baseline handz due-today h=1000", configuration: configuration) { (benchmark: Benchmark, state: (HardCodedHandz, HardCodedHandz.Index)) in
        let (code, index) = state
        for _ in benchmark.scaledIterations { blackHole(code.dueToday(index)) }
    } setup: {
        (HardCodedHandz(zone: Zone(identifier: "America/New_York")!),
         HardCodedHandz.Index(Fixtures.history(1_000, types: Fixtures.handzTypes)))
    }
}

let benchmarks: @Sendable () -> Void = {
    let sizes = [0, 100, 1_000, 100_000]

    // MARK: Decide on the shipped bundles
    decideBenchmarks("handz due-today", engine: { Fixtures.handz }, sizes: sizes, types: Fixtures.handzTypes,
                     request: Fixtures.handzDueToday)
    decideBenchmarks("handz inbox-burst", engine: { Fixtures.handz }, sizes: sizes, types: Fixtures.handzTypes,
                     request: Fixtures.handzInboxBurst)
    decideBenchmarks("handz quiet-hours", engine: { Fixtures.handz }, sizes: sizes, types: Fixtures.handzTypes,
                     request: Fixtures.handzQuiet)
    decideBenchmarks("rin reminder", engine: { Fixtures.rin }, sizes: sizes, types: Fixtures.rinTypes,
                     request: Fixtures.rinReminder)
    decideBenchmarks("rin capped-burst", engine: { Fixtures.rin }, sizes: sizes, types: Fixtures.rinTypes,
                     request: Fixtures.rinCappedBurst)
    decideBenchmarks("rin quiet-hours", engine: { Fixtures.rin }, sizes: sizes, types: Fixtures.rinTypes,
                     request: Fixtures.rinQuiet)

    // MARK: Baseline: the Handz due-today decision hard-coded in Swift
    for size in [0, 1_000, 100_000] {
        Benchmark("baseline handz due-today h=\(size)", configuration: fast) { (benchmark: Benchmark, state: (HardCodedHandz, HardCodedHandz.Index)) in
            let (code, index) = state
            for _ in benchmark.scaledIterations {
                blackHole(code.dueToday(index))
            }
        } setup: {
            (HardCodedHandz(zone: Zone(identifier: "America/New_York")!),
             HardCodedHandz.Index(Fixtures.history(size, types: Fixtures.handzTypes)))
        }
    }

    // MARK: The headline decision and its baseline, 1,000 per sample, and one per sample timed only
    headlineBenchmarks("loop", configuration: loop)
    headlineBenchmarks("timed", configuration: timedSingle)

    // MARK: Sweeps
    for size in [10, 100, 1_000, 10_000, 100_000] {
        Benchmark("sweep history h=\(size)", configuration: fast) { (benchmark: Benchmark, state: (Engine, DecisionRequest, LedgerIndex)) in
            let (engine, request, ledger) = state
            for _ in benchmark.scaledIterations { blackHole(engine.decide(request, ledger: ledger, now: request.now)) }
        } setup: {
            let r = Fixtures.handzDueToday(history: Fixtures.history(size, types: Fixtures.handzTypes))
            return (Fixtures.handz, r, Fixtures.handz.ledger(r.history))
        }
    }
    for types in [10, 100, 1_000, 10_000] {
        Benchmark("sweep types n=\(types)", configuration: fast) { (benchmark: Benchmark, state: (Engine, DecisionRequest, LedgerIndex)) in
            let (engine, request, ledger) = state
            for _ in benchmark.scaledIterations { blackHole(engine.decide(request, ledger: ledger, now: request.now)) }
        } setup: {
            let engine = Engine(bundle: Fixtures.bundle(Fixtures.generatedBundle(types: types).path))
            let r = Fixtures.generatedRequest(history: Fixtures.genHistory(1_000, types: types))
            return (engine, r, engine.ledger(r.history))
        }
    }

    // MARK: Plan
    Benchmark("plan handz 1000 candidates 7d", configuration: slow) { (benchmark: Benchmark, state: (Engine, PlanRequest)) in
        let (engine, request) = state
        for _ in benchmark.scaledIterations { blackHole(engine.plan(request)) }
    } setup: {
        (Fixtures.handz, Fixtures.planRequest(1_000, history: Fixtures.history(100, types: Fixtures.handzTypes)))
    }

    // MARK: Load + compile + validate
    for name in Repo.bundles {
        Benchmark("validate \(name)", configuration: slow) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Validator.validate(Repo.policy(name))) }
        }
    }
    Benchmark("validate all five bundles", configuration: slow) { benchmark in
        for _ in benchmark.scaledIterations {
            for name in Repo.bundles { blackHole(Validator.validate(Repo.policy(name))) }
        }
    }
    // MARK: Memory of a compiled bundle
    for name in Repo.bundles {
        Benchmark("memory compiled \(name)", configuration: memory) { benchmark in
            for _ in benchmark.scaledIterations {
                keptEngines.engines.append(Engine(bundle: Fixtures.bundle(Repo.policy(name))))
            }
        } teardown: {
            keptEngines.engines.removeAll(keepingCapacity: true)
        }
    }
    Benchmark("memory compiled generated n=10000", configuration: memory) { (benchmark: Benchmark, path: String) in
        for _ in benchmark.scaledIterations {
            keptEngines.engines.append(Engine(bundle: Fixtures.bundle(path)))
        }
    } setup: {
        Fixtures.generatedBundle(types: 10_000).path
    } teardown: {
        keptEngines.engines.removeAll(keepingCapacity: true)
    }

    // MARK: One long line: read (or rejected) and rendered, linear in the line's length
    for line in Fixtures.OneLine.allCases {
        Benchmark("validate one-line \(line.rawValue)", configuration: timed) { (benchmark: Benchmark, path: String) in
            for _ in benchmark.scaledIterations {
                let result = Validator.validate(path)
                blackHole(DiagnosticRenderer().render(result.diagnostics.items, sources: result.sources))
            }
        } setup: {
            line.write()
        }
    }

    for types in [1_000, 10_000] {
        Benchmark("validate generated n=\(types)", configuration: timed) { (benchmark: Benchmark, path: String) in
            for _ in benchmark.scaledIterations { blackHole(Validator.validate(path)) }
        } setup: {
            let (path, bytes) = Fixtures.generatedBundle(types: types)
            print("generated catalog n=\(types): \(bytes) bytes of YAML")
            return path
        }
    }
}
