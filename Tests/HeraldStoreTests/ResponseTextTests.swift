import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldStore
import HeraldTestSupport
import HeraldTesting
import Testing

/// The stored and served response is written without a JSON tree (`DecisionResponse.text`,
/// `Decision.compactJSON()`); it must be byte for byte the tree's text (`response(_:engine:)
/// .serialized()`, what `herald decide` prints compactly), over every decision every seed
/// bundle's scenario tests make: notifications with presentations, batches, suppressions,
/// `delivery: all` types, traces with details.
@Suite struct ResponseTextTests {
    @Test(arguments: SeedBundleRuns.bundles)
    func responseTextIsTheTreesText(_ name: String) async throws {
        try await Task(executorPreference: SeedBundleRuns.executor) { try Self.compare(name) }.value
    }

    static func compare(_ name: String) throws {
        let (engine, results) = try SeedBundleRuns.run(name)
        var compared = 0
        for result in results {
            // A `delivery: all` trigger's decisions come one after another with its type.
            var index = result.decisions.startIndex
            while index < result.decisions.endIndex {
                let decision = result.decisions[index]
                #expect(decision.compactJSON() == decision.json().serialized(), "\(name) / \(result.name)")
                var end = index + 1
                if engine.deliversAll(decision.type) {
                    while end < result.decisions.endIndex, result.decisions[end].type == decision.type,
                          result.decisions[end].channel != decision.channel { end += 1 }
                }
                let group = Array(result.decisions[index ..< end])
                #expect(DecisionResponse.text(group, engine: engine)
                            == DecisionResponse.json(group, engine: engine).serialized(), "\(name) / \(result.name)")
                compared += group.count
                index = end
            }
        }
        // Every bundle's tests make decisions (a run that compared nothing would prove nothing).
        #expect(compared > 20, "\(name): only \(compared) decisions compared")
    }

    @Test func emptyDecisionsAndEscapes() throws {
        let engine = try StoreFixtures.engine(StoreFixtures.bundle(cap: 2, types: ""))
        #expect(DecisionResponse.text([], engine: engine) == DecisionResponse.json([], engine: engine).serialized())
        let decision = Decision(action: .suppress, reason: "quiet \"hours\"\n", type: "t\u{2028}", category: "c\\",
                                trace: [TraceStep(stage: .caps, outcome: .verdict, rule: "r", detail: "ünïcode 🎉\u{01}")],
                                policy: Decision.Policy(name: "p", digest: "d"))
        #expect(decision.compactJSON() == decision.json().serialized())
    }
}
