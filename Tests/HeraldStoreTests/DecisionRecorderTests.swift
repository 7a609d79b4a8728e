import HeraldEngine
import HeraldStore
import Testing

/// Decide-and-record against the in-memory store.
@Suite struct DecisionRecorderTests {
    @Test func recordsScheduledDecisionsAndCountsThemAgainstTheCap() async throws {
        let engine = try StoreFixtures.engine(StoreFixtures.bundle(cap: 2))
        let recorder = DecisionRecorder(engine: engine, store: InMemoryLedgerStore())
        let t = StoreFixtures.monday
        var actions: [String] = []
        for i in 0 ..< 3 {
            let result = try await recorder.decide(StoreFixtures.request(user: "u1", id: "n\(i)", at: t + i * 60))
            #expect(!result.replayed)
            actions.append(result.decisions[0].action.rawValue + "/" + result.decisions[0].reason)
        }
        #expect(actions == ["schedule/on_time", "schedule/on_time", "suppress/rate_limited"])
        let ledger = try await recorder.ledger(user: "u1")
        #expect(ledger.map(\.entry.key) == ["ping:n0", "ping:n1"])
        #expect(ledger.allSatisfy { $0.entry.status == .scheduled && $0.recordedAt >= t })
    }
}
