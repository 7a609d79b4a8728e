import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// What a cap's `max` may read (docs/language.md § `caps`, "A cap sized by its subject"): a
/// `scope: subject` cap's may read `state.*` and `subject` (a `string` there); any other scope's
/// may not (`H0327`, `H0328`).
@Suite struct CapLimitTests {
    typealias S = CompilerTestSupport

    /// The minimal bundle with a map-valued state and a type with a subject, plus one cap on it.
    static func bundle(cap: String) -> String {
        """
        app: { name: Demo, scheme: demo }
        channels:
          push: { kind: push }
        categories:
          plans: { title: Plans }
        state:
          streak: int
          plans:
            cadence: "map<int>"
            paused: "map<bool>"
        user:
          weekly: int
        routes:
          home: { url: "demo://home" }
        types:
          checkpoint:
            category: plans
            channels: [push]
            params: { planId: string }
            subject: "{planId}"
            caps:
              - \(cap)
            copy: { body: "Checkpoint." }
            link: { route: home }

        """
    }

    static func codes(_ cap: String) -> [String] {
        S.validate(bundle(cap: cap)).diagnostics.sorted.map(\.code.id)
    }

    static func limit(_ cap: String) -> CapLimit? {
        S.validate(bundle(cap: cap)).bundle?.types["checkpoint"]?.caps.first?.max
    }

    @Test(arguments: [
        "{ scope: subject, max: \"state.plans.cadence[subject] ?? 2\", per: week }",
        "{ scope: subject, max: \"state.streak + (state.plans.cadence[subject] ?? 0)\", per: week }",
        "{ scope: subject, max: \"subject == 'p1' ? 1 : 2\", per: week }",
        "{ scope: subject, max: \"min(user.weekly, state.plans.cadence[subject] ?? 2)\", per: week }",
        "{ scope: type, max: \"user.weekly\", per: week }",
    ])
    func aSubjectCapMayReadStateBySubject(cap: String) throws {
        #expect(Self.codes(cap) == [])
        let limit = try #require(Self.limit(cap))
        guard case .expression(let e) = limit else {
            Issue.record("expected an expression limit")
            return
        }
        #expect(e.type == .int)
    }

    /// In a subject cap `subject` is never absent: `??` on it is `H0312` (not optional).
    @Test func subjectIsAStringInASubjectCap() {
        #expect(Self.codes("{ scope: subject, max: \"state.plans.cadence[subject ?? 'x'] ?? 2\", per: week }") == ["H0312"])
    }

    @Test(arguments: [
        ("{ scope: type, max: \"state.plans.cadence['p1'] ?? 2\", per: week }", "type"),
        ("{ max: \"state.streak\", per: week }", "type"),
        ("{ scope: global, max: \"state.streak\", per: day }", "global"),
        ("{ scope: category, max: \"state.streak + 1\", per: day }", "category"),
        ("{ scope: channel, max: \"state.plans.cadence['p1'] ?? 2\", per: day }", "channel"),
    ])
    func stateOutsideASubjectCapIsH0327(cap: String, scope: String) throws {
        let result = S.validate(Self.bundle(cap: cap))
        let d = try #require(result.diagnostics.sorted.first)
        #expect(result.diagnostics.sorted.map(\.code.id) == ["H0327"])
        #expect(d.message.hasSuffix("but the cap's scope is `\(scope)`"))
        #expect(d.message.hasPrefix("`max` reads `state."))
    }

    @Test func subjectOutsideASubjectCapIsH0328() throws {
        let result = S.validate(Self.bundle(cap: "{ scope: type, max: \"(subject ?? '') == 'p1' ? 1 : 2\", per: week }"))
        #expect(result.diagnostics.sorted.map(\.code.id) == ["H0328"])
        #expect(result.diagnostics.sorted.first?.message == "`max` reads `subject`, but the cap's scope is `type`, which does not count by subject")
    }

    @Test func bothReadsOutsideASubjectCapAreBothReported() {
        #expect(Self.codes("{ scope: global, max: \"state.plans.cadence[subject ?? ''] ?? 2\", per: week }") == ["H0327", "H0328"])
    }

    @Test func aPolicyCapFollowsTheSameRule() {
        let policy = Self.bundle(cap: "{ max: 1, per: day }")
        let ok = policy + "caps:\n  - { id: by-plan, scope: subject, max: \"state.plans.cadence[subject] ?? 2\", per: week }\n"
        #expect(S.validate(ok).diagnostics.sorted.map(\.code.id) == [])
        let bad = policy + "caps:\n  - { id: all, scope: global, max: \"state.streak\", per: week }\n"
        #expect(S.validate(bad).diagnostics.sorted.map(\.code.id) == ["H0327"])
    }

    @Test(arguments: [
        ("{ scope: subject, max: \"state.plans.paused[subject] ?? false\", per: week }", "H0310"),
        ("{ scope: subject, max: \"state.plans.cadence[subject]\", per: week }", "H0311"),
        ("{ scope: subject, max: \"state.plans.cadnce[subject] ?? 2\", per: week }", "H0306"),
        ("{ scope: subject, max: \"params.planId == 'x' ? 1 : 2\", per: week }", "H0306"),
        ("{ scope: subject, max: \"delivery.weekday == 'sat' ? 1 : 2\", per: week }", "H0320"),
    ])
    func aSubjectCapsMaxIsStillCheckedLikeAnyExpression(cap: String, code: String) {
        #expect(Self.codes(cap) == [code])
    }
}
