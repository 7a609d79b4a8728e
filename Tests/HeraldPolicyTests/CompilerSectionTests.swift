import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// Every section compiles into the model, with its defaults filled in.
@Suite struct CompilerSectionTests {
    typealias S = CompilerTestSupport

    func bundle(_ extra: String = "", base: String = CompilerTestSupport.minimalBundle) throws -> PolicyBundle {
        let result = S.validate(base + extra)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description))")
        return try #require(result.bundle)
    }

    @Test func minimalBundleCompiles() throws {
        let b = try bundle()
        #expect(b.app == App(name: "Demo", scheme: "demo", span: b.app!.span))
        #expect(b.types.names == ["daily-reminder"])
        #expect(b.channels["push"]?.kind == .push)
        #expect(b.categories["reminders"]?.title == "Reminders")
        #expect(b.routes["home"] != nil)
    }

    @Test func channelDefaults() throws {
        let b = try bundle(base: S.minimalBundle.replacingOccurrences(of: "  push: { kind: push }", with: """
          push: { kind: push }
          local: { kind: local }
          email: { kind: email }
          sms: { kind: sms, permission: true, toggle: true, default: false }
          in_app: { kind: in_app }
        """))
        #expect(b.channels["push"]?.permission == true)
        #expect(b.channels["local"]?.permission == true)
        #expect(b.channels["email"]?.permission == false)
        #expect(b.channels["in_app"]?.kind == .inApp)
        #expect(b.channels["push"]?.toggle == false)
        #expect(b.channels["push"]?.defaultOn == true)
        let sms = try #require(b.channels["sms"])
        #expect(sms.permission && sms.toggle && !sms.defaultOn)
        #expect(b.channels.names == ["push", "local", "email", "sms", "in_app"])
    }

    @Test func categoryKeys() throws {
        let b = try bundle(base: S.minimalBundle.replacingOccurrences(of: "  reminders: { title: Reminders }", with: """
          reminders: { title: Reminders }
          security:
            title: Security
            locked: true
            default: false
            threadId: "security.{type}"
            interruption: timeSensitive
            requires: "has(state.lastOpenedAt)"
            channels: { push: false }
            description: account alerts
        """))
        let r = try #require(b.categories["reminders"])
        #expect(r.defaultOn && !r.locked && r.interruption == .active && r.threadId == nil && r.requires == nil)
        let s = try #require(b.categories["security"])
        #expect(s.locked && !s.defaultOn && s.interruption == .timeSensitive)
        #expect(s.requires?.type == .bool)
        #expect(s.threadId?.source == "security.{type}")
        #expect(s.channels.map(\.channel) == ["push"] && s.channels.first?.on == false)
        #expect(s.description == "account alerts")
    }

    @Test func stateAndUserSchemas() throws {
        let b = try bundle("""
        user:
          tier: enum(free, pro)
          credits: { type: int, description: "credits left" }
          tags: list<string>
        """)
        #expect(b.state["streak"] == .value(.int))
        #expect(b.state["lastOpenedAt"] == .value(.optional(.instant)))
        #expect(b.user["tier"] == .value(.enumeration(EnumType(cases: ["free", "pro"]))))
        #expect(b.user["credits"] == .value(.int))
        #expect(b.user["tags"] == .value(.list(.string)))
        let credits = try #require(b.schemaFields.first { $0.path == ["user", "credits"] })
        #expect(credits.description == "credits left")
    }

    @Test func nestedStateObjects() throws {
        let b = try bundle(base: S.minimalBundle.replacingOccurrences(of: "  streak: int\n", with: "  streak: int\n  maintenance:\n    dueToday: int\n    overdue: { type: int }\n"))
        #expect(b.state["maintenance"] == .object(["dueToday": .value(.int), "overdue": .value(.int)]))
        #expect(b.schemaFields.contains { $0.path == ["state", "maintenance", "dueToday"] })
    }

    @Test func schemaTypeParser() {
        #expect(SchemaTypeParser.parse("int?") == .optional(.int))
        #expect(SchemaTypeParser.parse("list<weekday>") == .list(.weekday))
        #expect(SchemaTypeParser.parse("enum(a, b,c)") == .enumeration(EnumType(cases: ["a", "b", "c"])))
        #expect(SchemaTypeParser.parse("list<int>?") == .optional(.list(.int)))
        #expect(SchemaTypeParser.parse("int??") == nil)
        #expect(SchemaTypeParser.parse("enum()") == nil)
        #expect(SchemaTypeParser.parse("enum(a, a)") == nil)
        #expect(SchemaTypeParser.parse("integer") == nil)
        for t in ["bool", "int", "string", "duration", "instant", "time", "date", "weekday"] {
            #expect(SchemaTypeParser.parse(t) != nil)
        }
    }

    @Test func reasonsAndBuiltIns() throws {
        let b = try bundle("reasons:\n  no_due_items: { description: nothing is due }\n  short_form: said in a string\n")
        #expect(b.reasons["no_due_items"]?.description == "nothing is due")
        #expect(b.reasons["short_form"]?.description == "said in a string")
        #expect(b.isKnownReason("rate_limited") && b.isKnownReason("no_due_items") && !b.isKnownReason("nope"))
        #expect(Reason.builtIn.count == 15)
        #expect(Reason.scheduleReasons.contains("burst_spacing"))
    }

    @Test func routesWithParams() throws {
        let b = try bundle(base: S.minimalBundle.replacingOccurrences(of: "  home: { url: \"demo://home\" }", with: """
          home: { url: "demo://home" }
          lesson:
            url: "demo://lesson?id={lessonId}&mode={mode}"
            params: { lessonId: string, mode: "enum(quick, full)" }
        """))
        let lesson = try #require(b.routes["lesson"])
        #expect(lesson.params.map(\.name) == ["lessonId", "mode"])
        #expect(lesson.paramType("mode") == .enumeration(EnumType(cases: ["quick", "full"])))
        #expect(lesson.url?.source == "demo://lesson?id={lessonId}&mode={mode}")
    }

    @Test func badgeIsAnIntExpression() throws {
        let b = try bundle("badge: \"state.streak > 0 ? 1 : 0\"\n")
        #expect(b.badge?.type == .int)
        let bad = S.validateMinimal(plus: "badge: \"state.streak > 0\"\n")
        #expect(S.codes(bad) == ["H0310"])
    }

    @Test func typeDefaults() throws {
        let b = try bundle()
        let t = try #require(b.types["daily-reminder"])
        #expect(t.defaultOn && !t.critical && !t.locked && !t.silent)
        #expect(t.timing.at == .immediate && t.timing.offset == 0 && !t.timing.trainingDays && t.timing.expires == nil)
        #expect(t.eligible == nil && t.caps.isEmpty && t.suppress.isEmpty && t.dedupe == nil)
        #expect(t.idempotencyKey == nil && t.subject == nil && t.interruption == nil && t.threadId == nil && t.priority == nil)
        #expect(t.copy?.body?.source == "Time to practice.")
        #expect(t.link?.route == "home")
        #expect(t.fallback == nil)
        #expect(t.span.start.line == 12)
    }

    @Test func everyTypeKey() throws {
        let text = S.minimalBundle.replacingOccurrences(of: "  push: { kind: push }", with: "  push: { kind: push }\n  in_app: { kind: in_app }")
            .replacingOccurrences(of: "  home: { url: \"demo://home\" }", with: """
              home: { url: "demo://home" }
              lesson: { url: "demo://lesson?id={lessonId}", params: { lessonId: string } }
            """) + """
          lesson-ready:
            category: reminders
            channels: [push]
            fallback: in_app
            default: false
            description: a lesson is ready
            params:
              lessonId: string
              lessonName: { type: string, sensitive: true, description: user-authored }
              startsAt: instant
            eligible: "state.streak >= 0"
            timing: { at: param(startsAt), offset: -15m, trainingDays: true, expires: 2h, quietHours: bypass }
            caps: [ { max: 1, per: day } ]
            suppress:
              - { when: "state.streak == 0", reason: ineligible }
            dedupe: { key: "{lessonId}", window: 1h }
            idempotencyKey: "{type}:{lessonId}:{localDate}"
            subject: "{lessonId}"
            critical: true
            locked: true
            silent: false
            interruption: critical
            threadId: "lessons"
            priority: 5
            copy: { title: Lesson, subtitle: Ready, body: "{lessonName} is ready.", lockscreen: "A lesson is ready." }
            link: { route: lesson, lessonId: "{lessonId}" }

        """
        let b = try bundle(base: text)
        let t = try #require(b.types["lesson-ready"])
        #expect(t.fallback == "in_app" && !t.defaultOn && t.description == "a lesson is ready")
        #expect(t.params.map(\.name) == ["lessonId", "lessonName", "startsAt"])
        #expect(t.param("lessonName")?.sensitive == true && t.param("lessonId")?.sensitive == false)
        #expect(t.eligible?.type == .bool)
        #expect(t.timing == Timing(at: .param("startsAt"), offset: -900, trainingDays: true, expires: 7200, quietHours: .bypass, span: t.timing.span))
        #expect(t.caps.first?.id == "lesson-ready.caps[0]" && t.caps.first?.scope == .type && t.caps.first?.owner == "lesson-ready")
        #expect(t.suppress.first?.id == "lesson-ready.suppress[0]" && t.suppress.first?.reason == "ineligible")
        #expect(t.dedupe?.window == 3600 && t.dedupe?.key?.source == "{lessonId}")
        #expect(t.idempotencyKey != nil && t.subject?.source == "{lessonId}")
        #expect(t.critical && t.locked && !t.silent && t.interruption == .critical && t.threadId?.source == "lessons" && t.priority == 5)
        #expect(t.copy?.fields.map(\.key) == ["title", "subtitle", "body", "lockscreen"])
        #expect(t.link?.bindings.map(\.param) == ["lessonId"])
    }

    @Test func timingAnchors() throws {
        func anchor(_ at: String) throws -> TimingAnchor? {
            let b = try bundle("    timing: { at: \(at) }\n    params: { when: instant }\n")
            return b.types["daily-reminder"]?.timing.at
        }
        #expect(try anchor("immediate") == .immediate)
        #expect(try anchor("reminder_time") == .reminderTime)
        #expect(try anchor("local(\"09:30\")") == .localTime(9 * 3600 + 1800))
        #expect(try anchor("'local(\"07:00\")'") == .localTime(7 * 3600))
        #expect(try anchor("param(when)") == .param("when"))
        #expect(try anchor("state(lastOpenedAt)") == .state(["lastOpenedAt"]))
    }

    @Test func silentTypeNeedsNoCopy() throws {
        let b = try bundle(base: S.minimalBundle.replacingOccurrences(of: "    copy: { body: \"Time to practice.\" }\n", with: "    silent: true\n"))
        #expect(b.types["daily-reminder"]?.copy == nil)
        let missing = S.validate(S.minimalBundle.replacingOccurrences(of: "    copy: { body: \"Time to practice.\" }\n", with: ""))
        #expect(S.codes(missing) == ["H0204"])
    }
}
