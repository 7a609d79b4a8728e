import Foundation
import HeraldContract
import HeraldEngine
import HeraldSimulate
import HeraldSyntax
import Testing

@Suite struct ScenarioFilesTests {
    static let apps = ["handz", "urbannest", "rin", "kwilt", "crescender"]

    /// Every shipped scenario reads without a diagnostic and runs without a rejected request.
    @Test(arguments: apps)
    func shippedScenarioRuns(_ app: String) throws {
        let engine = try #require(SimulateSupport.engine("policies/\(app)"))
        let path = SimulateSupport.path("policies/\(app)/scenarios/typical-week.yaml")
        let loaded = ScenarioLoader.load(path: path, engine: engine)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.items.map(\.description))")
        let scenario = try #require(loaded.scenario)
        let result = Simulator(engine: engine, scenario: scenario).run(.init(users: 40))
        #expect(result.errors.isEmpty, "\(result.errorMessages)")
        #expect(result.deliveries > 0)
        #expect(result.actions["suppress", default: 0] < result.decisions, "not everything is suppressed")
    }

    /// Late triggers are deferred out of quiet hours, and users' opens reach the ledger.
    @Test func quietHoursAndBehaviour() throws {
        let engine = try #require(SimulateSupport.handz)
        let text = """
            users: 20
            days: 2
            population:
              timezone: Europe/Berlin
              permission: granted
              user: { account: true, tier: pro, credits: 0 }
              state:
                inbox: { unread: 0, blockedSenders: [] }
            triggers:
              - type: N-INBOX-NEW-IMPORT
                at: ["23:15"]
                params: { importId: { unique: imp }, senderId: coach, senderName: Sam, flowName: Blues, abuseFlagged: false }
            behaviour:
              open: { probability: 1, delay: 5m }
            """
        let loaded = ScenarioLoader.load(SourceFile(path: "quiet.yaml", text: text), engine: engine)
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics.items.map(\.description))")
        let result = Simulator(engine: engine, scenario: scenario).run(.init(sampleUsers: 1))
        #expect(result.quietHoursDeferrals == 40)
        // Day 1's import arrives at 07:00 on day 2; day 2's after the window.
        #expect(result.userDays.allSatisfy { $0 <= 1 })
        #expect(result.deliveries == 20)
        #expect(result.opened == 20)
        #expect(result.pendingAtEnd == 20)
        let marks = result.samples[0].marks
        #expect(marks.contains { $0.kind == .delivered && $0.minute == 7 * 60 && $0.day == 1 })
    }
}
