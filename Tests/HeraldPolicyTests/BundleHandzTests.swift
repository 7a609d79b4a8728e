import Testing
import HeraldSyntax
@testable import HeraldPolicy

@Suite struct BundleHandzTests {
    @Test func handzValidatesWithoutErrors() throws {
        let result = Validator.validate(CompilerTestSupport.repoRoot + "/policies/handz")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description).joined(separator: "\n"))")
        #expect(result.bundle != nil)
        guard let bundle = result.bundle else { return }
        #expect(bundle.name == "handz-default")
        #expect(bundle.app?.scheme == "handz")
        #expect(bundle.types.count == 10)
        #expect(bundle.digest.count == 16)
    }
}

@Suite struct BundleHandzDetailTests {
    static let result = Validator.validate(CompilerTestSupport.repoRoot + "/policies/handz")

    @Test func handzModel() throws {
        let b = try #require(Self.result.bundle)
        let due = try #require(b.types["N-MAINT-DUE-TODAY"])
        #expect(due.category == "maintenance" && due.channels == ["local"] && due.fallback == "in_app")
        #expect(due.timing.at == .reminderTime && !due.timing.trainingDays)
        #expect(due.caps.map(\.id) == ["maint-due-daily"] && due.caps[0].scope == .type && due.caps[0].per == .day)
        #expect(due.suppress.map(\.reason) == ["no_due_items"])
        #expect(due.link?.route == "maintenance" && due.link?.bindings.first?.param == "filter")
        let trial = try #require(b.types["N-BILLING-TRIAL-END"])
        #expect(trial.timing.at == .param("trialEndsAt") && trial.timing.offset == -48 * 3600)
        #expect(trial.caps.first?.scope == .subject && trial.caps.first?.per == .lifetime)
        // §5.2 defers to the quiet-hours end, so no `expires`; a past T is `missed` (§5.4).
        #expect(b.types["N-PRACTICE-SCHEDULED"]?.timing.expires == nil)
        #expect(b.types["N-PRACTICE-SCHEDULED"]?.timing.past == .skip)
        #expect(b.types["N-MAINT-OVERDUE"]?.timing.judgedAt == .delivery)
        #expect(b.types["N-INBOX-NEW-IMPORT"]?.param("senderName")?.sensitive == true)
        #expect(b.caps.map(\.id) == ["inbox-daily", "global-hard", "global-burst", "soft-daily"])
        #expect(b.caps[2].per == .duration(60) && b.caps[2].over == .defer)
        #expect(b.caps[0].over == .digest("inbox_summary") && b.caps[3].over == .batch("summary"))
        #expect(b.defaults.reminderTime == 19 * 3600 && b.defaults.quietHours == QuietHoursWindow(start: 22 * 3600, end: 7 * 3600))
        #expect(b.defaults.maxPerDay == 2)
        #expect(b.batching["summary"]?.members.count == 4 && b.batching["summary"]?.window == 900)
        #expect(b.digests["inbox_summary"]?.atReminderTime == true)
        #expect(b.priorities.count == 11 && b.priorities.first?.name == "N-BILLING-PAYMENT-FAILED")
        #expect(b.content.maxLength == 90 && b.content.banned.contains("you failed"))
        #expect(b.reasons.count == 19 && b.routes.count == 7 && b.categories.count == 6 && b.channels.count == 3)
        #expect(b.badge?.type == .int)
        // G4 / G9: sessions and plans by id; a plan's cadence sizes its own subject cap.
        #expect(b.types["N-MASTERY-CHECKPOINT"]?.caps.map(\.id) == ["checkpoint-weekly", "plan-cadence"])
        #expect(b.types["N-MASTERY-CHECKPOINT"]?.caps.last?.scope == .subject)
        #expect(b.types["N-MASTERY-CHECKPOINT"]?.suppress.map(\.id) == ["plan-inactive", "plan-reminders-off"])
        #expect(b.user["tier"] == .value(.enumeration(EnumType(cases: ["guest", "free", "pro", "trial"]))))
    }

    @Test func handzHasNoDiagnosticsAtAll() {
        #expect(Self.result.diagnostics.isEmpty, "\(Self.result.diagnostics.sorted.map(\.description))")
    }
}
