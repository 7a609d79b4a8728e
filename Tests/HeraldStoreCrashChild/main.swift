// A process that decides and records in a loop, for the crash test (HeraldStoreTests'
// CrashTests): `HeraldStoreCrashChild <bundle-dir> <db> <user>` decides `ping` triggers
// n0, n1, … against the SQLite store and prints each returned response on its own line (flushed),
// until it is killed.
import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSQLite
import HeraldStore

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: HeraldStoreCrashChild <bundle-dir> <db> <user>\n".utf8))
    exit(64)
}
guard let bundle = Validator.validate(arguments[1], lints: false).bundle else {
    FileHandle.standardError.write(Data("error: the bundle does not compile\n".utf8))
    exit(1)
}
let recorder = DecisionRecorder(engine: Engine(bundle: bundle), store: try SQLiteLedgerStore(path: arguments[2]))
let start = 1_773_050_400
var i = 0
while true {
    let at = start + i * 7
    let request = DecisionRequest(type: "ping", at: at, now: at, user: ["id": .string(arguments[3])], permission: .granted,
                                  params: ["id": .string("n\(i)")])
    let result = try await recorder.decide(request, idempotencyKey: "r\(i)")
    FileHandle.standardOutput.write(Data((result.response + "\n").utf8))
    i += 1
}
