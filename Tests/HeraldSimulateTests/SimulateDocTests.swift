import Foundation
import HeraldContract
import HeraldEngine
import HeraldSimulate
import Testing

/// docs/simulate.md shows the real output of its diff example; this re-runs it.
@Suite struct SimulateDocTests {
    @Test func diffExampleIsTheRealOutput() throws {
        let doc = try String(contentsOfFile: SimulateSupport.path("docs/simulate.md"), encoding: .utf8)
        let begin = try #require(doc.range(of: "<!-- diff-example:begin -->\n```\n"))
        let end = try #require(doc.range(of: "```\n<!-- diff-example:end -->"))
        let block = String(doc[begin.upperBound..<end.lowerBound])
        let command = "$ herald diff policies/handz docs/examples/handz-max3 --scenario policies/handz/scenarios/typical-week.yaml --users 200\n"
        #expect(block.hasPrefix(command), "the example's command changed; update this test with it")
        let shown = String(block.dropFirst(command.count))

        let a = try #require(SimulateSupport.handz)
        let b = try #require(SimulateSupport.engine("docs/examples/handz-max3"))
        let path = "policies/handz/scenarios/typical-week.yaml"
        let scenarioA = try #require(SimulateSupport.scenario(path, engine: a))
        let scenarioB = try #require(SimulateSupport.scenario(path, engine: b))
        let diff = SimulationDiff(a: Simulator(engine: a, scenario: scenarioA).run(.init(users: 200)),
                                  b: Simulator(engine: b, scenario: scenarioB).run(.init(users: 200)))
        #expect(diff.text() == shown, "docs/simulate.md's diff example is stale; paste the output of its command")
        #expect(diff.caps.contains { $0.name.hasPrefix("soft-daily") && $0.delta < 0 }, "raising the default cap makes soft-daily batch less")
    }
}
