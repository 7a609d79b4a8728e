import Foundation
import HeraldPolicy
import HeraldStore
import Testing

/// What a store reads for a cap whose `max` is an expression (docs/store.md § How much is read):
/// a state-driven `max` reads nothing from the ledger beyond the cap's own window; a `sent()`
/// in a `max` widens the read to its window.
@Suite struct LedgerWindowCapLimitTests {
    static func window(max: String, scope: String = "subject") -> LedgerWindow {
        let text = """
        app: { name: Demo, scheme: demo }
        channels:
          push: { kind: push }
        categories:
          plans: { title: Plans }
        state:
          cadence: "map<int>"
        routes:
          home: { url: "demo://home" }
        types:
          checkpoint:
            category: plans
            channels: [push]
            params: { planId: string }
            subject: "{planId}"
            caps:
              - { id: plan-cadence, scope: \(scope), max: "\(max)", per: day }
            copy: { body: "Checkpoint." }
            link: { route: home }

        """
        let dir = NSTemporaryDirectory() + "herald-window-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/bundle.yaml", contents: Data(text.utf8))
        let result = Validator.validate(dir)
        guard let bundle = result.bundle else { fatalError("\(result.diagnostics.items.map(\.description))") }
        return LedgerWindow(bundle: bundle)
    }

    @Test func aStateDrivenMaxReadsOnlyTheCapsWindow() {
        let fixed = Self.window(max: "2")
        #expect(Self.window(max: "state.cadence[subject] ?? 2").lookback == fixed.lookback)
        #expect(fixed.lookback == 2 * 86_400 + LedgerWindow.margin)
    }

    @Test func aSentWindowInMaxWidensTheRead() {
        let window = Self.window(max: "sent(checkpoint, 30d) > 4 ? 1 : 2", scope: "type")
        #expect(window.lookback == 30 * 86_400 + LedgerWindow.margin)
    }
}
