// Runs the benchmark scenario (scenario-10k.yaml) through policies/handz and prints the wall
// time of each run: `HeraldSimulateBenchmark [runs] [threads...]` (default 3 runs on 1 and 2
// threads). Build and run in release: `swift run -c release HeraldSimulateBenchmark`.
// `HERALD_SIM_USERS=N` runs only the first N users (for a profiler); `HERALD_SIM_JSON=FILE` writes
// the run's JSON there (to compare two builds byte for byte).
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSimulate

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rootPath = here.deletingLastPathComponent().deletingLastPathComponent().path
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let runs = arguments.first ?? 3
let threadCounts = arguments.count > 1 ? Array(arguments.dropFirst()) : [1, 2]

let validation = Validator.validate(rootPath + "/policies/handz", lints: false)
guard let bundle = validation.bundle else { fatalError("policies/handz does not compile") }
let engine = Engine(bundle: bundle)
let loaded = ScenarioLoader.load(path: here.path + "/scenario-10k.yaml", engine: engine)
guard let scenario = loaded.scenario else { fatalError("scenario-10k.yaml: \(loaded.diagnostics.items.map(\.description))") }

let users = ProcessInfo.processInfo.environment["HERALD_SIM_USERS"].flatMap { Int($0) } ?? scenario.users
print("scenario \(scenario.name): \(users) users × \(scenario.days) days × 20 triggers a day")
var reference: String?
for threads in threadCounts {
    for run in 1...runs {
        let start = DispatchTime.now().uptimeNanoseconds
        // As `herald simulate` runs: threads after the first on a replica (the files compiled again).
        let result = Simulator(engine: engine, scenario: scenario) {
            guard let bundle = Validator.validate(rootPath + "/policies/handz", lints: false).bundle else { return nil }
            let copy = Engine(bundle: bundle)
            return ScenarioLoader.load(path: here.path + "/scenario-10k.yaml", engine: copy).scenario.map { (copy, $0) }
        }.run(.init(users: users, threads: threads))
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let json = result.json().serialized()
        if reference == nil { reference = json }
        let same = json == reference ? "same JSON" : "DIFFERENT JSON"
        print(String(format: "threads %d run %d: %.2f s, %d decisions (%.2f µs each), %d deliveries, %@", threads, run, seconds,
                     result.decisions, seconds * 1e6 / Double(max(result.decisions, 1)), result.deliveries, same))
    }
}
if let path = ProcessInfo.processInfo.environment["HERALD_SIM_JSON"], let json = reference {
    try! json.write(toFile: path, atomically: true, encoding: .utf8)
}
