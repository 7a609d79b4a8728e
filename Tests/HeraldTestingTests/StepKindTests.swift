import Testing
import HeraldSyntax
import HeraldContract
@testable import HeraldEngine
import HeraldPolicy
@testable import HeraldTesting

private func parse(_ text: String) -> ([PolicyTestCase], Diagnostics) {
    var diagnostics = Diagnostics()
    let cases = PolicyTestLoader.parse(SourceFile(path: "t.yaml", text: text), diagnostics: &diagnostics)
    return (cases, diagnostics)
}

/// One test whose `when`/`then` are the given flow YAML; the codes of its errors.
private func codes(when: String, then: String, given: String = "{ user: { id: u1 } }") -> [String] {
    let (_, diagnostics) = parse("""
    tests:
      - name: t
        given: \(given)
        when: \(when)
        then: \(then)
    """)
    return diagnostics.items.filter { $0.severity == .error }.map(\.code.id)
}

/// Decides every trigger `schedule` at its `at`, batched in `b` when `params.batch` is true.
private let fakeDecide: PolicyTestRunner.Decide = { request, _ in
    var d = Decision(action: .schedule, reason: request.history.contains { $0.key == "k-\(request.type)" && $0.status == .delivered } ? "seen" : "on_time",
                     deliverAt: request.at, type: request.type, key: "k-\(request.type)", policy: Decision.Policy(name: "fake", digest: "0"))
    if request.params["batch"]?.boolValue == true {
        d.action = .batch
        d.batch = Decision.Batch(group: "g", key: "b", flushAt: request.at)
    }
    return .success(d)
}

@Suite struct StepKindTests {

    @Test(arguments: [
        // H0608: two kinds; a trigger field in a plan; pending outside reconcile; no `now`; in `given`.
        ("{ prompt: true, plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ], now: \"2026-03-10T10:00:00Z\" }", "{}", "H0608"),
        ("{ type: a, now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{}", "H0608"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\", pending: [] }", "{}", "H0608"),
        ("{ plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{}", "H0608"),
        // H0609
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [] }", "{}", "H0609"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\", param: {} } ] }", "{}", "H0609"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { at: \"2026-03-10T10:00:00Z\" } ] }", "{}", "H0609"),
        // H0610
        ("{ now: \"2026-03-10T10:00:00Z\", reconcile: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ], pending: [ { key: k, type: a } ] }", "{}", "H0610"),
        ("{ now: \"2026-03-10T10:00:00Z\", reconcile: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ], pending: { key: k } }", "{}", "H0610"),
        // H0611
        ("{ events: [ { key: k, status: seen, at: \"2026-03-10T10:00:00Z\" } ] }", "{}", "H0611"),
        ("{ events: [ { key: k, status: delivered } ] }", "{}", "H0611"),
        ("{ events: [ { key: k, status: opened, at: \"2026-03-10T10:00:00Z\", when: x } ] }", "{}", "H0611"),
        // H0612
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ add: [k] }", "H0612"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ action: schedule }", "H0612"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ cancel: [] }", "H0612"),
        ("{ events: [ { key: k, status: opened, at: \"2026-03-10T10:00:00Z\" } ] }", "{ action: schedule }", "H0612"),
        // H0613
        ("{ now: \"2026-03-10T10:00:00Z\", reconcile: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ add: { k: 1 } }", "H0613"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ decisions: [ schedule ] }", "H0613"),
        // H0614
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ not: {} }", "H0614"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ not: { not: { reason: x } } }", "H0614"),
        // H0615
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ localTime: { from: \"07:00\" } }", "H0615"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ localTime: { from: \"07:00\", to: \"25:00\" } }", "H0615"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ localTime: { from: \"07:00\", to: \"08:00\", at: \"09:00\" } }", "H0615"),
        // H0616: the first step cannot name itself or a later one.
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ batch: { sameAs: 1 } }", "H0616"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ decisions: [ { batch: { sameAs: 1 } } ] }", "H0616"),
        // H0617: `members` outside `batches`, or not a count.
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ members: 2 }", "H0617"),
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ decisions: [ { members: 2 } ] }", "H0617"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ batches: [ { members: 0 } ] }", "H0617"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ batches: [ { members: two } ] }", "H0617"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ batches: [ { not: { members: 2 } } ] }", "H0617"),
        // H0618: some blocks name a key, others do not.
        ("{ now: \"2026-03-10T10:00:00Z\", plan: [ { type: a, at: \"2026-03-10T10:00:00Z\" } ] }", "{ decisions: [ { key: k }, { action: schedule } ] }", "H0618"),
        ("{ type: a, at: \"2026-03-10T10:00:00Z\" }", "{ batches: [ { key: b }, { members: 1 } ] }", "H0618"),
    ])
    func misuseIsADiagnostic(when: String, then: String, code: String) {
        #expect(codes(when: when, then: then).contains(code), "\(when) / \(then)")
    }

    @Test func planKeysInGivenAreMisplaced() {
        #expect(codes(when: "{ type: a, at: \"2026-03-10T10:00:00Z\" }", then: "{}", given: "{ user: { id: u1 }, pending: [] }") == ["H0608"])
    }

    @Test func sameAsNamesAnEarlierTriggerStepAndRangesAndNegationsCheck() throws {
        let (cases, diagnostics) = parse("""
        tests:
          - name: batches
            given: { user: { id: u1 } }
            when:
              - { type: a, at: "2026-03-10T10:00:00Z", params: { batch: true } }
              - { type: b, at: "2026-03-10T10:00:00Z", params: { batch: true } }
              - { type: c, at: "2026-03-10T23:00:00Z" }
            then:
              - { batch: { group: g } }
              - { batch: { sameAs: 1 }, not: { reason: seen } }
              - { batch: { sameAs: 1 }, localTime: { from: "07:00", to: "22:00" }, not: { reason: on_time } }
        """)
        #expect(!diagnostics.hasErrors)
        let result = PolicyTestRunner(decide: fakeDecide).run(try #require(cases.first))
        // Step 3 is in no batch, outside the range, and its reason is the one `not` forbids.
        #expect(result.failures.map(\.field) == ["batch.sameAs", "localTime", "not.reason"])
        #expect(result.failures.allSatisfy { $0.step == 2 })
    }

    @Test func aTriggerStepChecksItsDecisionsAsAnOrderedList() throws {
        let (cases, diagnostics) = parse("""
        tests:
          - name: list
            given: { user: { id: u1 } }
            when:
              - { type: a, at: "2026-03-10T10:00:00Z" }
              - { type: b, at: "2026-03-10T10:00:00Z" }
            then:
              - { decisions: [ { action: schedule, type: a } ] }
              - { decisions: [ { type: b }, { type: b } ] }
        """)
        #expect(!diagnostics.hasErrors)
        let result = PolicyTestRunner(decide: fakeDecide).run(try #require(cases.first))
        #expect(result.failures.map(\.field) == ["decisions"])
        #expect(result.failures.first?.expected == "2 entries")
    }

    @Test func eventsUpdateTheFedHistory() throws {
        let (cases, diagnostics) = parse("""
        tests:
          - name: events
            given: { user: { id: u1 } }
            when:
              - { type: a, at: "2026-03-10T10:00:00Z" }
              - events: [ { key: k-a, status: delivered, at: "2026-03-10T10:01:00Z" } ]
              - { type: a, at: "2026-03-10T11:00:00Z" }
              - { events: [ { key: nowhere, status: opened, at: "2026-03-10T11:00:00Z" } ], type: b, at: "2026-03-10T12:00:00Z" }
            then:
              - { reason: on_time }
              - {}
              - { reason: seen }
              - { reason: on_time }
        """)
        #expect(!diagnostics.hasErrors)
        let result = PolicyTestRunner(decide: fakeDecide).run(try #require(cases.first))
        #expect(result.failures.map(\.field) == ["events"])
        #expect(result.failures.first?.step == 3)
    }
}

/// A plan of one batch flush; a reconcile that keeps every pending key still a candidate type,
/// cancels the rest and adds the others (key = type).
private let fakePlan: PolicyTestRunner.PlanSet = { request in
    let policy = Decision.Policy(name: "fake", digest: "0")
    let decisions = request.candidates.map { c in
        Decision(action: .schedule, reason: "on_time", deliverAt: c.at, type: c.type, key: c.type, policy: policy)
    }
    var flushed = Decision(action: .schedule, reason: "batched", deliverAt: request.now, type: "g", key: "batch:g", policy: policy)
    flushed.notification = Decision.Notification(title: "2 new", body: "and more", link: "app://inbox", threadId: "inbox")
    return .success(Plan(decisions: decisions, batches: [flushed], deliveries: decisions + [flushed]))
}

private let fakeReconcile: PolicyTestRunner.Reconcile = { request in
    switch fakePlan(request.plan) {
    case .failure(let errors): return .failure(errors)
    case .success(let plan):
        let wanted = Set(plan.decisions.compactMap(\.key))
        var r = Reconciliation()
        r.keep = request.pending.filter { wanted.contains($0.key) }
        r.cancel = request.pending.filter { !wanted.contains($0.key) }
        let pendingKeys = Set(request.pending.map(\.key))
        r.add = plan.decisions.filter { !pendingKeys.contains($0.key ?? "") }
        return .success((plan, r))
    }
}

@Suite struct PlanStepTests {
    @Test func planAndReconcileStepsCheckTheirResultsAndLeavePending() throws {
        let (cases, diagnostics) = parse("""
        tests:
          - name: plan then reconcile twice
            given: { user: { id: u1 } }
            when:
              - now: "2026-03-10T10:00:00Z"
                plan: [ { type: a, at: "2026-03-10T10:00:00Z" }, { type: b, at: "2026-03-10T11:00:00Z" } ]
              - now: "2026-03-10T10:00:00Z"
                reconcile: [ { type: a, at: "2026-03-10T10:00:00Z" } ]
                pending: [ { key: a, type: a, deliverAt: "2026-03-10T10:00:00Z" }, { key: z, type: z, deliverAt: "2026-03-10T10:00:00Z" } ]
              - now: "2026-03-10T10:05:00Z"
                reconcile: [ { type: a, at: "2026-03-10T10:00:00Z" }, { type: c, at: "2026-03-10T12:00:00Z" } ]
            then:
              - decisions: [ { type: a, action: schedule }, { type: b, localTime: { from: "10:30", to: "11:30" } } ]
                batches: [ { title: "2 new", body: "and more", link: "app://inbox", threadId: "inbox" } ]
              - { add: [], keep: [a], update: [], cancel: [z] }
              - { add: [c], keep: [a], cancel: [], deliveries: [ { key: c }, { key: "batch:g" }, { key: a } ] }
        """)
        #expect(!diagnostics.hasErrors, "\(diagnostics.items)")
        let runner = PolicyTestRunner(decide: { _, _ in .failure(RequestErrors([])) }, plan: fakePlan, reconcile: fakeReconcile)
        let result = runner.run(try #require(cases.first))
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.decisions.count == 3 + 2 + 3)
    }

    @Test func aWrongBatchTitleOrKeyListFails() throws {
        let (cases, _) = parse("""
        tests:
          - name: wrong
            given: { user: { id: u1 } }
            when:
              - now: "2026-03-10T10:00:00Z"
                reconcile: [ { type: a, at: "2026-03-10T10:00:00Z" } ]
                pending: []
            then:
              - { add: [b], batches: [ { title: "3 new" } ] }
        """)
        let runner = PolicyTestRunner(decide: { _, _ in .failure(RequestErrors([])) }, plan: fakePlan, reconcile: fakeReconcile)
        let result = runner.run(try #require(cases.first))
        #expect(result.failures.map(\.field) == ["add", "batches"])
        #expect(result.failures.map(\.actual) == ["[a]", "2 new"])
    }
}
