// Decides the headline request (Handz N-MAINT-DUE-TODAY at noon in New York, 2 items due,
// a kept 1,000-entry ledger) N times in a plain loop: `HeraldCounted N [typed|request]`.
// `typed` (the default) decides the engine's typed inputs, converted once, as a service that
// keeps a user's context does; `request` converts the request (`Engine.inputs`) every time, as
// a served or CLI request is.
//
// Instructions per decision = (count at N = 3,000 − count at N = 1,000) / 2,000, with
//   SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind .build/release/HeraldCounted N
// (the set-up is the same in both runs, so it cancels out).
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy

let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { url.deleteLastPathComponent() }
    return url.path
}()

let result = Validator.validate(root + "/policies/handz")
guard let bundle = result.bundle else { fatalError("invalid bundle: \(result.diagnostics.map(\.message))") }
let engine = Engine(bundle: bundle)

let noon = 1_773_158_400
let day = 86_400
let types = ["N-MAINT-OVERDUE", "N-PRACTICE-SCHEDULED", "N-MASTERY-CHECKPOINT", "N-BILLING-TRIAL-END"]
let history = (0..<1_000).map { i in
    let type = types[i % types.count]
    return HistoryEntry(key: "\(type):u1:h\(i)", type: type, subject: "s\(i % 50)", channel: "push",
                        deliverAt: noon - 2 * day - i * 3600, status: .delivered)
}
let request = DecisionRequest(type: "N-MAINT-DUE-TODAY", at: noon, now: noon,
                              user: ["id": "u1", "account": true, "tier": "free"],
                              prefs: PreferencesInput(timezone: "America/New_York"),
                              permission: .granted, state: ["maintenance": ["dueToday": 2, "overdue": 0]],
                              params: ["count": 2], history: history)
let ledger = engine.ledger(history)

let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000 : 1_000
let convertsEachTime = CommandLine.arguments.count > 2 && CommandLine.arguments[2] == "request"
guard case .success(let inputs) = engine.inputs(request) else { fatalError("the headline request does not convert") }
var scheduled = 0
for _ in 0..<iterations {
    let decided = convertsEachTime
        ? engine.decide(request, ledger: ledger, now: noon)
        : engine.decide(inputs.trigger, for: inputs.user, ledger: ledger, now: noon)
    if case .success(let decision) = decided, decision.action == .schedule {
        scheduled += 1
    }
}
guard scheduled == iterations else { fatalError("expected \(iterations) scheduled decisions, got \(scheduled)") }
print(iterations, "decisions")
