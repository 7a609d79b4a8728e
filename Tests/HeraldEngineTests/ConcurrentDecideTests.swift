import Foundation
import HeraldContract
import HeraldEngine
import Testing

/// One engine shared by many threads decides as it does alone: the hot path reads the
/// engine's tables through unretained references and shares them with every decision, so
/// this checks that concurrent decisions (and reading their traces and copy on other
/// threads) give exactly the sequential results.
@Suite struct ConcurrentDecideTests {
    typealias S = DecideSupport

    @Test func sharedEngineDecidesAsItDoesAlone() async {
        let engine = S.engine()
        let requests = DecideTraceTests.scenarios.map(\.1)
        let expected = requests.map { S.decide($0, engine: engine).json().serialized() }
        let rounds = 50
        let results = await withTaskGroup(of: [String].self) { group in
            for worker in 0 ..< 8 {
                group.addTask {
                    var seen: [String] = []
                    for round in 0 ..< rounds {
                        let index = (worker + round) % requests.count
                        let decision = S.decide(requests[index], engine: engine)
                        // Read on this thread what the decision reads from the shared tables.
                        let text = decision.json().serialized()
                        seen.append(text == expected[index] ? "" : "\(index): \(text)")
                    }
                    return seen
                }
            }
            var all: [String] = []
            for await part in group { all += part }
            return all
        }
        #expect(results.count == 8 * rounds)
        let mismatches = results.filter { !$0.isEmpty }
        #expect(mismatches == [])
    }

    /// Decisions outlive the calls that made them and are read from other threads.
    @Test func decisionsReadOnOtherThreads() async {
        let decisions = DecideTraceTests.scenarios.map { S.decide($0.1) }
        let expected = decisions.map { $0.json().serialized() }
        let texts = await withTaskGroup(of: (Int, String).self) { group in
            for (index, decision) in decisions.enumerated() {
                group.addTask { (index, decision.json().serialized()) }
            }
            var texts = Array(repeating: "", count: decisions.count)
            for await (index, text) in group { texts[index] = text }
            return texts
        }
        #expect(texts == expected)
    }
}
