import Foundation
import HeraldContract
import HeraldEngine
import HeraldStore
@testable import HeraldSimulate
import Testing

/// An `{ instant: … }` in the population (not `daily`) is an offset from the start of the user's
/// first simulated day, in the user's zone: an account made 30 days before the run is dated
/// 30 days before the run, not in 1969.
@Suite struct PopulationInstantTests {
    @Test func aPopulationInstantCountsFromTheUsersFirstDay() throws {
        let engine = try #require(SimulateSupport.handz)
        let source = try String(contentsOfFile: SimulateSupport.path("policies/handz/scenarios/typical-week.yaml"), encoding: .utf8)
        let edited = source
            .replacingOccurrences(of: #"timezone: { pick: [America/New_York: 0.3, America/Los_Angeles: 0.15, Europe/Berlin: 0.2, Europe/London: 0.1, Asia/Kolkata: 0.25] }"#,
                                  with: "timezone: Asia/Kathmandu")
            .replacingOccurrences(of: #"createdAt: "2025-11-01T12:00:00Z""#, with: #"createdAt: { instant: "-30d" }"#)
        #expect(edited.contains("Asia/Kathmandu") && edited.contains(#"{ instant: "-30d" }"#), "the edits must apply")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-population-instant-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("week.yaml").path
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = ScenarioLoader.load(path: path, engine: engine)
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")

        let run = UserRun(engine: engine, scenario: scenario, window: LedgerWindow(bundle: engine.bundle), index: 0, days: 1,
                          seed: scenario.seed, keepMarks: false)
        // The run starts on 2026-03-09 at midnight in Kathmandu (+05:45): 2026-03-08T18:15:00Z.
        #expect(run.dayStart(0) == RFC3339.parse("2026-03-08T18:15:00Z"))
        // 30 days before it, written as an instant (RFC 3339, UTC).
        #expect(run.stateJSON["account"]?["createdAt"] == JSON.string("2026-02-06T18:15:00Z"))
    }
}
