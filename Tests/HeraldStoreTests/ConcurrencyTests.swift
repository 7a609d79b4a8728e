import Foundation
import HeraldContract
import HeraldEngine
import HeraldStore
import Testing

/// 16 tasks deciding for one user against one store: the hard cap holds and no key is recorded twice.
@Suite struct ConcurrencyTests {
    /// 10,000, or `HERALD_STORE_TEST_TRIGGERS` (a multiple of 100, at least 1,000): `.ci/run`
    /// lowers it for the sanitizer runs only (docs/testing.md).
    /// Nil when the variable is not such a number (the test then fails saying so).
    static let triggers: Int? = {
        guard let text = ProcessInfo.processInfo.environment["HERALD_STORE_TEST_TRIGGERS"] else { return 10_000 }
        guard let value = Int(text), value >= 1_000, value % 100 == 0 else { return nil }
        return value
    }()

    @Test(arguments: StoreKind.allCases)
    func sixteenTasksOneUserTenThousandTriggers(_ kind: StoreKind) async throws {
        let cap = 5
        let engine = try StoreFixtures.engine(StoreFixtures.bundle(cap: cap))
        let recorder = DecisionRecorder(engine: engine, store: try kind.make())
        let t = StoreFixtures.monday
        let triggers = try #require(Self.triggers, "HERALD_STORE_TEST_TRIGGERS must be a multiple of 100, at least 1000")
        let days = triggers / 100
        let tasks = 16
        // 100 triggers a day over `days` days (100 for 10,000 triggers), dealt round-robin to the tasks so each day's triggers
        // race; every 10th trigger is also sent again by the next task (a retry, same idempotency key).
        let results = try await withThrowingTaskGroup(of: [(Int, String, Bool)].self) { group in
            for task in 0 ..< tasks {
                group.addTask {
                    var seen: [(Int, String, Bool)] = []
                    for i in stride(from: task, to: triggers, by: tasks) {
                        let at = t + (i / 100) * 86_400 + (i % 100) * 60
                        let result = try await recorder.decide(StoreFixtures.request(user: "u1", id: "n\(i)", at: at),
                                                               idempotencyKey: "r\(i)")
                        seen.append((i, result.response, result.replayed))
                        let retry = i - 1
                        if retry >= 0, retry % 10 == 0 {
                            let at = t + (retry / 100) * 86_400 + (retry % 100) * 60
                            let again = try await recorder.decide(StoreFixtures.request(user: "u1", id: "n\(retry)", at: at),
                                                                  idempotencyKey: "r\(retry)")
                            seen.append((retry, again.response, again.replayed))
                        }
                    }
                    return seen
                }
            }
            var all: [(Int, String, Bool)] = []
            for try await part in group { all += part }
            return all
        }
        #expect(results.count == triggers + triggers / 10)
        // Every answer for one idempotency key is the same bytes.
        var byKey: [Int: String] = [:]
        for (i, response, _) in results {
            if let earlier = byKey[i] { #expect(earlier == response) } else { byKey[i] = response }
        }
        #expect(results.filter(\.2).count <= triggers / 10)
        let ledger = try await recorder.ledger(user: "u1")
        // No key recorded twice.
        #expect(Set(ledger.map(\.entry.key)).count == ledger.count)
        // The hard cap never exceeded: at most `cap` entries in any UTC day (the policy's zone).
        var perDay: [Int: Int] = [:]
        for record in ledger { perDay[record.entry.deliverAt / 86_400, default: 0] += 1 }
        #expect(perDay.values.allSatisfy { $0 <= cap })
        // And the cap was reached: every day filled.
        #expect(perDay.count == days && perDay.values.allSatisfy { $0 == cap })
        #expect(ledger.count == days * cap)
    }
}
