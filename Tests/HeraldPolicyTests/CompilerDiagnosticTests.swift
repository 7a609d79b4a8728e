import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Each structure and reference code fires where it should, with "did you mean" where it helps.
@Suite struct CompilerDiagnosticTests {
    typealias S = CompilerTestSupport

    func diagnostics(_ text: String) -> [Diagnostic] {
        S.validate(text).diagnostics.sorted
    }

    func minimal(replacing old: String, with new: String) -> [Diagnostic] {
        diagnostics(S.minimalBundle.replacingOccurrences(of: old, with: new))
    }

    @Test func unknownTopLevelSection() {
        let d = diagnostics(S.minimalBundle + "cap: []\n")
        #expect(d.map(\.code.id) == ["H0201"])
        #expect(d.first?.suggestion == "caps")
        #expect(d.first?.message == "unknown key `cap` in a bundle file")
    }

    @Test func unknownKeySuggestsAndDoesNotAlsoReportMissing() {
        let d = minimal(replacing: "    category: reminders", with: "    categroy: reminders")
        #expect(d.map(\.code.id) == ["H0201"])
        #expect(d.first?.suggestion == "category")
        #expect(d.first?.message == "unknown key `categroy` in type `daily-reminder`")
    }

    @Test(arguments: [
        ("    channels: [push]", "    channels: push", "H0202"),
        ("    copy: { body: \"Time to practice.\" }", "    copy: \"Time to practice.\"", "H0202"),
        ("    link: { route: home }", "    link: [home]", "H0202"),
        ("    category: reminders", "    category: [reminders]", "H0202"),
    ])
    func wrongShapes(old: String, new: String, code: String) {
        #expect(minimal(replacing: old, with: new).map(\.code.id) == [code])
    }

    @Test func wrongScalars() {
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    default: maybe").map(\.code.id) == ["H0203"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    priority: high").map(\.code.id) == ["H0203"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    default: \"true\"").map(\.code.id) == ["H0203"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: lots, per: day }\n").map(\.code.id) == ["H0203"])
        #expect(diagnostics(S.minimalBundle + "content: { maxLength: 0 }\n").map(\.code.id) == ["H0203"])
    }

    @Test func missingKeys() {
        #expect(minimal(replacing: "  push: { kind: push }", with: "  push: { permission: true }").map(\.code.id) == ["H0204"])
        #expect(minimal(replacing: "  reminders: { title: Reminders }", with: "  reminders: { default: true }").map(\.code.id) == ["H0204"])
        #expect(minimal(replacing: "  home: { url: \"demo://home\" }", with: "  home: { description: home }").map(\.code.id) == ["H0204"])
        #expect(minimal(replacing: "app: { name: Demo, scheme: demo }", with: "app: { name: Demo }").map(\.code.id) == ["H0204"])
        #expect(minimal(replacing: "    channels: [push]\n", with: "").map(\.code.id) == ["H0204"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 3 }\n").map(\.code.id) == ["H0204"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { per: day }\n").map(\.code.id) == ["H0204"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { scope: global }\n").map(\.code.id) == ["H0204", "H0204"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { cooldown: 1h, max: 2 }\n").map(\.code.id) == ["H0204"])
        #expect(diagnostics(S.minimalBundle + "    suppress: [ { when: \"true\" } ]\n").map(\.code.id) == ["H0204"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { }").map(\.code.id) == ["H0204"])
    }

    @Test func missingAppSection() {
        #expect(minimal(replacing: "app: { name: Demo, scheme: demo }\n", with: "").map(\.code.id) == ["H0204"])
    }

    @Test func badEnumValues() {
        let kind = minimal(replacing: "push: { kind: push }", with: "push: { kind: pus }")
        #expect(kind.map(\.code.id) == ["H0205"] && kind.first?.suggestion == "push")
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    interruption: loud").map(\.code.id) == ["H0205"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    timing: { at: soon }").map(\.code.id) == ["H0205"])
        let at = minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    timing: { at: reminder-time }")
        #expect(at.map(\.code.id) == ["H0205"] && at.first?.suggestion == "reminder_time")
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: fortnight }\n").map(\.code.id) == ["H0205"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, over: drop }\n").map(\.code.id) == ["H0205"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, scope: everyone }\n").map(\.code.id) == ["H0205"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, counts: [sent] }\n").map(\.code.id) == ["H0205"])
        #expect(diagnostics(S.minimalBundle + "defaults: { trainingDays: [monday] }\n").map(\.code.id) == ["H0205"])
        #expect(diagnostics(S.minimalBundle + "dst: { gap: skip }\n").map(\.code.id) == ["H0205"])
    }

    @Test func badDurationsAndTimes() {
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: 15 minutes }\n").map(\.code.id) == ["H0206"])
        #expect(diagnostics(S.minimalBundle + "dedupe: { window: 1.5h }\n").map(\.code.id) == ["H0206"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    timing: { expires: -1h }").map(\.code.id) == ["H0206"])
        #expect(diagnostics(S.minimalBundle + "defaults: { quietHours: { start: \"10pm\", end: \"07:00\" } }\n").map(\.code.id) == ["H0207"])
        #expect(diagnostics(S.minimalBundle + "digests:\n  daily: { at: \"9:00\", copy: { body: x } }\n").map(\.code.id) == ["H0207"])
        let local = minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    timing: { at: local(\"25:00\") }")
        #expect(local.map(\.code.id) == ["H0207"])
        #expect(local.first?.span?.start.column == 25)
    }

    @Test func badSchemaTypes() {
        let d = minimal(replacing: "  streak: int", with: "  streak: integer")
        #expect(d.map(\.code.id) == ["H0208"] && d.first?.suggestion == "int")
        #expect(minimal(replacing: "  streak: int", with: "  streak: enum()").map(\.code.id) == ["H0208"])
        #expect(minimal(replacing: "  streak: int", with: "  streak: [int]").map(\.code.id) == ["H0202"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    params: { count: number }").map(\.code.id) == ["H0208"])
    }

    @Test func duplicateRuleIDs() {
        let text = S.minimalBundle + "    suppress:\n      - { id: x, when: \"true\", reason: muted }\nsuppress:\n  - { id: x, when: \"true\", reason: muted }\n"
        let d = diagnostics(text)
        #expect(d.map(\.code.id) == ["H0209"])
        #expect(d.first?.notes.first?.span?.start.line == 18)
    }

    @Test func invalidIdentifiers() {
        #expect(minimal(replacing: "  reminders: { title: Reminders }", with: "  reminders: { title: Reminders }\n  \"game day\": { title: Game }").map(\.code.id) == ["H0210"])
        #expect(minimal(replacing: "  streak: int", with: "  streak-days: int").map(\.code.id) == ["H0210"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    params: { type: string }").map(\.code.id) == ["H0210"])
    }

    @Test func emptyLists() {
        #expect(minimal(replacing: "channels: [push]", with: "channels: []").map(\.code.id) == ["H0211"])
        #expect(diagnostics(S.minimalBundle + "batching:\n  s: { window: 15m, members: [], copy: { body: x } }\n").map(\.code.id) == ["H0211"])
    }

    @Test func unknownReferencesSuggest() {
        let category = minimal(replacing: "category: reminders", with: "category: reminder")
        #expect(category.map(\.code.id) == ["H0401"] && category.first?.suggestion == "reminders")
        let channel = minimal(replacing: "channels: [push]", with: "channels: [psh]")
        #expect(channel.map(\.code.id) == ["H0402"] && channel.first?.suggestion == "push")
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    fallback: in_app").map(\.code.id) == ["H0402"])
        #expect(minimal(replacing: "  reminders: { title: Reminders }", with: "  reminders: { title: Reminders, channels: { email: false } }").map(\.code.id) == ["H0402"])
        let route = minimal(replacing: "route: home", with: "route: hme")
        #expect(route.map(\.code.id) == ["H0403"] && route.first?.suggestion == "home")
        #expect(diagnostics(S.minimalBundle + "batching:\n  s: { window: 15m, members: [nope], copy: { body: x } }\n").map(\.code.id) == ["H0406"])
        let reason = diagnostics(S.minimalBundle + "    suppress: [ { when: \"true\", reason: rate_limitd } ]\n")
        #expect(reason.map(\.code.id) == ["H0407"] && reason.first?.suggestion == "rate_limited")
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, over: batch(none) }\n").map(\.code.id) == ["H0408"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, over: digest(none) }\n").map(\.code.id) == ["H0409"])
        let target = diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, match: [remnders] }\n")
        #expect(target.map(\.code.id) == ["H0410"] && target.first?.suggestion == "reminders")
        #expect(diagnostics(S.minimalBundle + "quietHours: { bypass: [security] }\n").map(\.code.id) == ["H0410"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: 1, per: day, only: [push] }\n").map(\.code.id) == ["H0410"])
        #expect(diagnostics(S.minimalBundle + "suppress:\n  - { match: [x], when: \"true\", reason: muted }\n").map(\.code.id) == ["H0410"])
    }

    @Test func timingReferences() {
        let notInstant = minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    params: { count: int }\n    timing: { at: param(count) }")
        #expect(notInstant.map(\.code.id) == ["H0411"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    timing: { at: state(streak) }").map(\.code.id) == ["H0412"])
    }

    @Test func linkReferences() {
        let routes = "  home: { url: \"demo://home\" }\n  lesson: { url: \"demo://lesson?id={lessonId}\", params: { lessonId: string } }"
        let base = S.minimalBundle.replacingOccurrences(of: "  home: { url: \"demo://home\" }", with: routes)
        func link(_ l: String) -> [String] {
            diagnostics(base.replacingOccurrences(of: "link: { route: home }", with: l)).map(\.code.id)
        }
        #expect(link("link: { route: lesson, lessonId: abc }") == [])
        #expect(link("link: { route: lesson }") == ["H0405"])
        #expect(link("link: { route: lesson, lessonID: abc }") == ["H0404"])
        #expect(link("link: { route: home, extra: x }") == ["H0404"])
        #expect(link("link: { route: nowhere, id: x }") == ["H0403"])
    }

    @Test func expressionErrorsComeThrough() {
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    eligible: \"state.streek > 3\"").map(\.code.id) == ["H0306"])
        #expect(minimal(replacing: "    link: { route: home }", with: "    link: { route: home }\n    eligible: \"state.streak\"").map(\.code.id) == ["H0310"])
        #expect(diagnostics(S.minimalBundle + "caps:\n  - { max: state.streek, per: day }\n").map(\.code.id) == ["H0306"])
    }

    /// Issue 15, item 8a: `>1-` keeps two of the line's seven spaces in the value; the unknown
    /// name is reported where it is written (column 8), not two columns to the right.
    @Test func expressionErrorInABlockScalarWithAnIndentationIndicator() {
        let found = minimal(replacing: "    link: { route: home }",
                            with: "    link: { route: home }\n    eligible: >1-\n       state.streek > 0")
        #expect(found.map { d in d.span.map { "\(d.code.id) \($0.start.line):\($0.start.column)" } } == ["H0306 18:8"])
        let literal = minimal(replacing: "    link: { route: home }",
                              with: "    link: { route: home }\n    eligible: |\n      state.streak > 0 &&\n        state.streek > 1")
        #expect(literal.map { d in d.span.map { "\(d.code.id) \($0.start.line):\($0.start.column)" } } == ["H0306 19:9"])
    }

    @Test func manyProblemsInOneRun() {
        let text = S.minimalBundle
            .replacingOccurrences(of: "category: reminders", with: "category: reminder")
            .replacingOccurrences(of: "route: home", with: "route: hom")
            + "caps:\n  - { max: lots, per: day }\n"
        #expect(diagnostics(text).map(\.code.id) == ["H0401", "H0403", "H0203"])
    }

    @Test func messagesFollowTheStyle() {
        let text = S.minimalBundle.replacingOccurrences(of: "category: reminders", with: "category: reminder")
            + "caps:\n  - { max: lots, per: fortnight, scope: all }\ncpas: []\n"
        for d in diagnostics(text) {
            #expect(d.message.first?.isLowercase == true || d.message.first == "`", "\(d.message)")
            #expect(!d.message.hasSuffix("."), "\(d.message)")
            #expect(!d.message.contains("\n"))
            #expect(d.span != nil)
        }
    }
}
