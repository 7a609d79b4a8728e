import Testing
import HeraldContract
import HeraldEngine

@Suite struct ContractDecisionTests {
    static let policy = Decision.Policy(name: "handz-default", digest: "sha256:9f2c41d0")

    /// The scheduled decision of `docs/decisions.md`.
    static let scheduled = Decision(
        action: .schedule, reason: "reminder_time", deliverAt: 1_772_992_800, utcOffset: 3600,
        type: "N-MAINT-DUE-TODAY", category: "maintenance", channel: "local",
        key: "N-MAINT-DUE-TODAY:u-1842:2026-03-08",
        notification: Decision.Notification(
            title: "Maintenance", body: "Maintenance due: 3 items. Keep your reactions sharp.",
            lockscreen: "Maintenance due today.", link: "handz://maintenance?filter=dueToday",
            threadId: "maintenance", interruptionLevel: "active", badge: 4),
        rule: Decision.Rule(id: "N-MAINT-DUE-TODAY.timing", source: "catalog/handz/types.yaml:14:5"),
        trace: [
            TraceStep(stage: .request, outcome: .pass),
            TraceStep(stage: .eligibility, outcome: .pass, rule: "N-MAINT-DUE-TODAY.eligible", source: "catalog/handz/types.yaml:12:5"),
            TraceStep(stage: .timing, outcome: .pass, rule: "N-MAINT-DUE-TODAY.timing", source: "catalog/handz/types.yaml:14:5",
                      detail: "aligned to reminder time 19:00"),
            TraceStep(stage: .caps, outcome: .pass, rule: "global-hard", source: "policies/handz/caps.yaml:2:5"),
            TraceStep(stage: .render, outcome: .pass),
        ],
        policy: policy)

    @Test func scheduledDecisionJSON() {
        #expect(Self.scheduled.json().serialized(pretty: true) == """
        {
          "action": "schedule",
          "category": "maintenance",
          "channel": "local",
          "deliverAt": "2026-03-08T18:00:00Z",
          "key": "N-MAINT-DUE-TODAY:u-1842:2026-03-08",
          "localDeliverAt": "2026-03-08T19:00:00+01:00",
          "notification": {
            "badge": 4,
            "body": "Maintenance due: 3 items. Keep your reactions sharp.",
            "interruptionLevel": "active",
            "link": "handz://maintenance?filter=dueToday",
            "lockscreen": "Maintenance due today.",
            "threadId": "maintenance",
            "title": "Maintenance"
          },
          "policy": {
            "digest": "sha256:9f2c41d0",
            "name": "handz-default"
          },
          "reason": "reminder_time",
          "rule": {
            "id": "N-MAINT-DUE-TODAY.timing",
            "source": "catalog/handz/types.yaml:14:5"
          },
          "trace": [
            {
              "outcome": "pass",
              "stage": "request"
            },
            {
              "outcome": "pass",
              "rule": "N-MAINT-DUE-TODAY.eligible",
              "source": "catalog/handz/types.yaml:12:5",
              "stage": "eligibility"
            },
            {
              "detail": "aligned to reminder time 19:00",
              "outcome": "pass",
              "rule": "N-MAINT-DUE-TODAY.timing",
              "source": "catalog/handz/types.yaml:14:5",
              "stage": "timing"
            },
            {
              "outcome": "pass",
              "rule": "global-hard",
              "source": "policies/handz/caps.yaml:2:5",
              "stage": "caps"
            },
            {
              "outcome": "pass",
              "stage": "render"
            }
          ],
          "type": "N-MAINT-DUE-TODAY"
        }
        """)
    }

    /// The suppressed decision of `docs/decisions.md`.
    static let suppressed = Decision(
        action: .suppress, reason: "rate_limited", deliverAt: 1_772_992_800, type: "N-MAINT-DUE-TODAY",
        category: "maintenance", rule: Decision.Rule(id: "global-hard", source: "policies/handz/caps.yaml:2:5"),
        cap: "global-hard",
        trace: [TraceStep(stage: .caps, outcome: .verdict, rule: "global-hard"), TraceStep(stage: .render, outcome: .skip)],
        policy: policy)

    @Test func suppressedDecisionLeavesOutDeliveryFields() {
        let json = Self.suppressed.json()
        #expect(json["deliverAt"] == nil)
        #expect(json["localDeliverAt"] == nil)
        #expect(json["notification"] == nil)
        #expect(json["fallback"] == nil)
        #expect(json["cap"] == "global-hard")
        #expect(json.serialized() == #"{"action":"suppress","cap":"global-hard","category":"maintenance","policy":{"digest":"sha256:9f2c41d0","name":"handz-default"},"reason":"rate_limited","rule":{"id":"global-hard","source":"policies/handz/caps.yaml:2:5"},"trace":[{"outcome":"verdict","rule":"global-hard","stage":"caps"},{"outcome":"skip","stage":"render"}],"type":"N-MAINT-DUE-TODAY"}"#)
    }

    @Test func batchAndFallbackFields() {
        let decision = Decision(
            action: .batch, reason: "batched", deliverAt: 1_772_993_700, utcOffset: -18_000, type: "N-MASTERY-CHECKPOINT",
            batch: Decision.Batch(group: "summary", key: "summary:u-1842:2026-03-08", flushAt: 1_772_993_700),
            fallback: "in_app", policy: Self.policy)
        let json = decision.json()
        #expect(json["batch"] == ["group": "summary", "key": "summary:u-1842:2026-03-08", "flushAt": "2026-03-08T18:15:00Z"])
        #expect(json["localDeliverAt"] == "2026-03-08T13:15:00-05:00")
        #expect(json["fallback"] == "in_app")
        #expect(json["trace"] == [])
    }

    /// `Decision.json()` builds every object in the byte order of its keys, the order
    /// `serialized()` writes, so a response's writer sorts nothing (a request's hot path).
    @Test func decisionJSONIsBuiltInKeyOrder() {
        var batched = Decision(
            action: .batch, reason: "batched", deliverAt: 1_772_993_700, type: "N-MASTERY-CHECKPOINT", category: "mastery",
            channel: "push", key: "k",
            batch: Decision.Batch(group: "summary", key: "summary:u-1842:2026-03-08", flushAt: 1_772_993_700),
            fallback: "in_app", rule: Decision.Rule(id: "r", source: "f:1:1"), cap: "c",
            trace: [TraceStep(stage: .timing, outcome: .pass, rule: "r", source: "f:1:1", detail: "d")], policy: Self.policy)
        batched.subject = "s"
        var unordered: [String] = []
        func walk(_ json: JSON, _ path: String) {
            if let members = json.members {
                let keys = members.map(\.key)
                if keys != keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { unordered.append("\(path): \(keys)") }
                for member in members { walk(member.value, path + "." + member.key) }
            }
            for (index, element) in (json.elements ?? []).enumerated() { walk(element, "\(path)[\(index)]") }
        }
        for decision in [Self.scheduled, Self.suppressed, batched] { walk(decision.json(), decision.reason) }
        #expect(unordered.isEmpty, "objects not built in key order: \(unordered)")
        #expect(batched.json().members?.count == 15)  // every member but `notification`
    }

    @Test func equalDecisionsGiveIdenticalBytes() {
        var copy = Self.scheduled
        copy.trace = Self.scheduled.trace
        #expect(copy.json().serialized() == Self.scheduled.json().serialized())
        copy.reason = "on_time"
        #expect(copy.json().serialized() != Self.scheduled.json().serialized())
    }
}
