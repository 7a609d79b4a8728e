import Foundation
import HeraldPolicy
import HeraldStore
import Testing

/// What a store reads for the rules of issue 18 part B: a `sent(t, since(field))` window has no
/// length (its target's entries are read and kept whatever their age), and a weekly digest holds
/// members up to a week (Tests/Fixtures/engine/digests).
@Suite struct LedgerWindowSinceTests {
    static let bundle: PolicyBundle = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = Validator.validate(root.appendingPathComponent("Tests/Fixtures/engine/digests").path)
        guard let bundle = result.bundle else { fatalError("\(result.diagnostics.items.map(\.description))") }
        return bundle
    }()

    @Test func aSinceWindowKeepsItsTargetWhateverItsAge() {
        let window = LedgerWindow(bundle: Self.bundle)
        #expect(window.lifetimeTypes == ["nudge"])
        #expect(window.lookback != nil)
        // Read far back: the target's entries are read (the lifetime types), the rest are not.
        let read = window.read(around: 400 * 86_400)
        #expect(read.lifetimeTypes == ["nudge"])
        #expect(window.pruneCutoff(now: 400 * 86_400) != nil)
    }

    @Test func aWeeklyDigestWidensTheReadToAWeek() {
        #expect(LedgerWindow(bundle: Self.bundle).lookback == 8 * 86_400 + LedgerWindow.margin)
    }
}
