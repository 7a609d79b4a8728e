import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// The policy sections: defaults, quiet hours, caps, cooldowns, suppression, dedupe, batching,
/// digests, priorities, dst and content.
@Suite struct CompilerPolicyTests {
    typealias S = CompilerTestSupport

    func bundle(_ extra: String) throws -> PolicyBundle {
        let result = S.validateMinimal(plus: extra)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description))")
        return try #require(result.bundle)
    }

    @Test func policyDefaultsWhenAbsent() throws {
        let b = try bundle("")
        #expect(b.defaults == Defaults())
        #expect(b.defaults.timezone == "UTC" && b.defaults.reminderTime == 19 * 3600 && b.defaults.quietHours == nil)
        #expect(b.defaults.maxPerDay == nil && !b.defaults.pausedAll && b.defaults.trainingDays.isEmpty)
        #expect(b.quietHours.during == .defer && b.quietHours.bypass.isEmpty)
        #expect(b.dst.gap == .nextValidMinute && b.dst.overlap == .first)
        #expect(b.content.maxLength == nil && b.content.banned.isEmpty)
        #expect(b.dedupe.window == nil)
        #expect(b.caps.isEmpty && b.suppress.isEmpty && b.batching.isEmpty && b.digests.isEmpty && b.priorities.isEmpty)
    }

    @Test func defaultsSection() throws {
        let b = try bundle("""
        defaults:
          timezone: Europe/Berlin
          reminderTime: "07:30"
          quietHours: { start: "22:00", end: "07:00" }
          trainingDays: [mon, wed, sun]
          maxPerDay: 3
          pausedAll: true
        """)
        #expect(b.defaults.timezone == "Europe/Berlin")
        #expect(b.defaults.reminderTime == 7 * 3600 + 30 * 60)
        #expect(b.defaults.quietHours == QuietHoursWindow(start: 22 * 3600, end: 7 * 3600))
        #expect(b.defaults.trainingDays == [1, 3, 7])
        #expect(b.defaults.maxPerDay == 3 && b.defaults.pausedAll)
    }

    @Test func nullQuietHoursMeansNone() throws {
        let b = try bundle("defaults: { quietHours: null }\n")
        #expect(b.defaults.quietHours == nil)
    }

    @Test func quietHoursSection() throws {
        let b = try bundle("quietHours: { during: suppress, bypass: [reminders, daily-reminder] }\n")
        #expect(b.quietHours.during == .suppress && b.quietHours.bypass == ["reminders", "daily-reminder"])
        #expect(S.codes(S.validateMinimal(plus: "quietHours: { during: bypass }\n")) == ["H0205"])
    }

    @Test func capsCompileWithDefaultIDsAndValues() throws {
        let b = try bundle("""
        caps:
          - { scope: global, max: 10, per: day }
          - { id: burst, max: 1, per: 1m, over: defer }
          - { id: soft, max: prefs.maxPerDay, per: week, over: batch(summary), only: [reminders], exempt: [daily-reminder] }
          - { id: inbox, scope: type, match: [daily-reminder], max: 5, per: calendar_week, over: digest(daily) }
          - { id: life, scope: subject, match: [reminders], max: 2, per: lifetime, counts: [delivered, opened] }
          - { id: monthly, scope: channel, match: [push], max: 30, per: month }
        cooldowns:
          - { scope: category, match: [reminders], cooldown: 7d }
        batching:
          summary: { window: 15m, members: [daily-reminder], copy: { body: "{count} waiting" } }
        digests:
          daily: { at: "09:00", copy: { body: "{count} updates" }, link: { route: home } }
        """)
        #expect(b.caps.map(\.id) == ["caps[0]", "burst", "soft", "inbox", "life", "monthly", "cooldowns[0]"])
        #expect(b.caps[0].scope == .global && b.caps[0].over == .suppress && b.caps[0].per == .day && b.caps[0].owner == nil)
        #expect(b.caps[0].counts == CountedStatus.defaults)
        if case .fixed(10)? = b.caps[0].max {} else { Issue.record("max 10") }
        #expect(b.caps[1].scope == .global && b.caps[1].per == .duration(60) && b.caps[1].over == .defer)
        if case .expression(let e)? = b.caps[2].max { #expect(e.type == .int) } else { Issue.record("max expression") }
        #expect(b.caps[2].over == .batch("summary") && b.caps[2].only == ["reminders"] && b.caps[2].exempt == ["daily-reminder"])
        #expect(b.caps[3].over == .digest("daily") && b.caps[3].per == .calendarWeek && b.caps[3].match == ["daily-reminder"])
        #expect(b.caps[4].per == .lifetime && b.caps[4].counts == [.delivered, .opened])
        #expect(b.caps[5].per == .month && b.caps[5].scope == .channel)
        #expect(b.caps[6].cooldown == 7 * 86_400 && b.caps[6].max == nil && b.caps[6].per == nil && b.caps[6].scope == .category)
    }

    @Test func policySuppressRules() throws {
        let b = try bundle("""
        reasons:
          muted_contact: { description: muted }
        suppress:
          - { match: [daily-reminder], when: "state.streak > 100", reason: muted_contact }
          - { id: weekend, when: "local.weekday in ['sat', 'sun']", reason: muted }
        """)
        #expect(b.suppress.map(\.id) == ["suppress[0]", "weekend"])
        #expect(b.suppress[0].match == ["daily-reminder"] && b.suppress[0].owner == nil)
        #expect(b.suppress[1].reason == "muted")
    }

    @Test func policyRuleParamsAreSharedParams() throws {
        let base = S.minimalBundle + """
          contact-a:
            category: reminders
            channels: [push]
            params: { contactId: string, extra: int }
            copy: { body: "A" }
          contact-b:
            category: reminders
            channels: [push]
            params: { contactId: string }
            copy: { body: "B" }
        reasons:
          x: {}

        """
        let ok = S.validate(base + "suppress:\n  - { match: [contact-a, contact-b], when: \"params.contactId in prefs.muted\", reason: muted }\n")
        #expect(!ok.diagnostics.hasErrors, "\(ok.diagnostics.sorted.map(\.description))")
        // `extra` is not declared by every matched type: it is optional there.
        let optional = S.validate(base + "suppress:\n  - { match: [contact-a, contact-b], when: \"params.extra > 1\", reason: muted }\n")
        #expect(S.codes(optional) == ["H0311"])
    }

    @Test func dedupeBatchingDigestsPrioritiesDstContent() throws {
        let b = try bundle("""
        dedupe: { window: 1h }
        batching:
          summary:
            window: 15m
            members: [daily-reminder]
            copy: { title: Demo, body: "{count} reminders: {first}" }
            link: { route: home }
        digests:
          daily: { at: "09:00", copy: { body: "{count} updates" } }
        priorities: [daily-reminder, reminders]
        dst: { gap: next_valid_minute, overlap: first }
        content: { maxLength: 90, banned: [lazy, "you failed"] }
        """)
        #expect(b.dedupe.window == 3600)
        let summary = try #require(b.batching["summary"])
        #expect(summary.window == 900 && summary.members == ["daily-reminder"] && summary.link?.route == "home")
        #expect(b.digests["daily"]?.at == 9 * 3600)
        #expect(b.priorities.map(\.name) == ["daily-reminder", "reminders"])
        #expect(b.priorityRank(ofType: "daily-reminder") == 0)
        #expect(b.dst == DSTPolicy(gap: .nextValidMinute, overlap: .first, span: b.dst.span))
        #expect(b.content.maxLength == 90 && b.content.banned == ["lazy", "you failed"])
    }

    @Test func nameAndDescription() throws {
        let b = try bundle("name: demo-default\ndescription: the default policy\n")
        #expect(b.name == "demo-default" && b.description == "the default policy")
        let unnamed = try bundle("")
        #expect(unnamed.name.hasPrefix("herald-compiler-"))
    }

    @Test func durationsAndTimes() {
        #expect(NodeReader.parseDuration("30s") == 30)
        #expect(NodeReader.parseDuration("15m") == 900)
        #expect(NodeReader.parseDuration("48h") == 172_800)
        #expect(NodeReader.parseDuration("7d") == 604_800)
        #expect(NodeReader.parseDuration("2w") == 1_209_600)
        #expect(NodeReader.parseDuration("1h30m") == 5400)
        #expect(NodeReader.parseDuration("-48h", signed: true) == -172_800)
        #expect(NodeReader.parseDuration("-48h") == nil)
        for bad in ["", "15", "m", "1h1h", "15 m", "1.5h", "2 days", "15x"] {
            #expect(NodeReader.parseDuration(bad) == nil, "\(bad)")
        }
        #expect(NodeReader.parseTimeOfDay("00:00") == 0)
        #expect(NodeReader.parseTimeOfDay("23:59") == 86_340)
        for bad in ["24:00", "7:00", "07:60", "7pm", "07:00:00", ""] {
            #expect(NodeReader.parseTimeOfDay(bad) == nil, "\(bad)")
        }
    }
}

@Suite("dst resolutions")
struct DSTResolutionTests {
    @Test(arguments: ["dst: { gap: shift }", "dst: { overlap: last }"])
    func unimplementedResolutionsAreRejected(_ line: String) {
        let dir = CompilerTestSupport.makeBundle(["a.yaml": CompilerTestSupport.minimalBundle + line + "\n"])
        #expect(Validator.validate(dir).diagnostics.map(\.code.id).contains("H0205"))
    }
}
