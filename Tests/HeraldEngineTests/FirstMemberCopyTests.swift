import HeraldContract
import HeraldEngine
import HeraldPolicy
import Testing

/// Batch and digest copy that names the first member (issue 18, P11 part 2; docs/language.md
/// § Copy that names the first member): `{first.<param>}` and `{others}`, over
/// `Tests/Fixtures/engine/first-member`.
@Suite struct FirstMemberCopyTests {
    typealias S = DecideSupport

    static let now = "2026-03-10T09:00:00Z"

    static func contact(_ type: String, _ id: String, name: String?, changes: Int, at time: String) -> DecisionRequest {
        var params: [JSON.Member] = [.init("contactId", .string(id)), .init("changes", .int(changes))]
        if let name { params.append(.init("name", .string(name))) }
        return S.request(type, at: time, now: now, user: ["id": "u1"], permission: "granted", state: [:],
                         params: .object(params))
    }

    static func plan(_ candidates: [DecisionRequest]) throws -> Plan {
        try S.engine("first-member").plan(candidates, now: S.instant(now), horizon: 86_400).get()
    }

    @Test("a flush names the first member's params and counts the others")
    func flushNamesTheFirstMember() throws {
        let plan = try Self.plan([
            Self.contact("contact-updated", "c-1", name: "Ana Ruiz", changes: 3, at: "2026-03-10T10:00:00Z"),
            Self.contact("contact-updated", "c-2", name: "Bo Lind", changes: 1, at: "2026-03-10T10:00:10Z"),
            Self.contact("contact-merged", "c-3", name: "Cy Roe", changes: 1, at: "2026-03-10T10:00:20Z"),
        ])
        let flushed = try #require(plan.batches.first)
        #expect(plan.batches.count == 1)
        #expect(flushed.notification?.title == "Ana Ruiz")
        #expect(flushed.notification?.body == "Ana Ruiz and 2 others changed (3 changes first).")
        #expect(flushed.notification?.link == "demo://contacts/c-1")
        // The flushed notification carries no params of its own.
        #expect(flushed.notification?.presentation == nil)
    }

    @Test("the first member is the earliest trigger, whatever the candidates' order; one other is singular")
    func earliestIsFirst() throws {
        let plan = try Self.plan([
            Self.contact("contact-updated", "c-2", name: "Bo Lind", changes: 2, at: "2026-03-10T10:00:10Z"),
            Self.contact("contact-updated", "c-1", name: "Ana Ruiz", changes: 1, at: "2026-03-10T10:00:00Z"),
        ])
        let flushed = try #require(plan.batches.first)
        #expect(flushed.notification?.body == "Ana Ruiz and 1 other changed (1 change first).")
    }

    @Test("members of two types: the first member's own param; an absent optional one renders empty")
    func absentOptionalRendersEmpty() throws {
        let plan = try Self.plan([
            Self.contact("contact-merged", "c-9", name: nil, changes: 2, at: "2026-03-10T10:00:00Z"),
            Self.contact("contact-updated", "c-1", name: "Ana Ruiz", changes: 1, at: "2026-03-10T10:00:05Z"),
        ])
        let flushed = try #require(plan.batches.first)
        #expect(flushed.notification?.body == " and 1 other changed (2 changes first).")
        #expect(flushed.notification?.title == "")
        #expect(flushed.notification?.link == "demo://contacts/c-9")
        // The merged member carried the params it has, not the absent `name`.
        let merged = try #require(plan.decisions.first)
        #expect(merged.notification?.presentation?.batchParams.map(\.name) == ["changes", "contactId"])
    }

    @Test("one-at-a-time decisions carry the params in their JSON, and flush from them alone")
    func decisionsCarryTheParams() throws {
        let engine = S.engine("first-member")
        let first = S.decide(Self.contact("contact-updated", "c-1", name: "Ana Ruiz", changes: 3, at: "2026-03-10T10:00:00Z"),
                             engine: engine)
        let json = first.json().serialized()
        #expect(json.contains(#""batchParams":{"changes":3,"contactId":"c-1","name":"Ana Ruiz"}"#))
        let secondRequest = S.request("contact-merged", at: "2026-03-10T10:00:20Z", now: Self.now, user: ["id": "u1"],
                                      permission: "granted", state: [:],
                                      params: ["contactId": "c-2", "name": "Bo Lind", "changes": 1],
                                      history: [S.entry("contact-updated", key: first.key, at: "2026-03-10T10:00:00Z",
                                                        status: "scheduled", subject: "c-1", channel: "push")])
        let second = S.decide(secondRequest, engine: engine)
        #expect(second.action == .batch)
        // Flushed alone, a member is its own notification, without the params it carried.
        let secondKey = try #require(second.batch?.key)
        let alone = try #require(engine.flush(secondKey, members: [second]))
        #expect(alone.notification?.body == "A contact was merged.")
        #expect(alone.notification?.presentation?.batchParams.isEmpty ?? true)
        #expect(!alone.json().serialized().contains("batchParams"))
        let key = try #require(second.batch?.key)
        let members = engine.batchMembers(of: key, among: [first, second])
        #expect(members.count == 2)
        let flushed = try #require(engine.flush(key, members: members))
        #expect(flushed.notification?.body == "Ana Ruiz and 1 other changed (3 changes first).")
    }

    @Test("a decision without carried params (made by the caller) flushes with empty names, not a crash")
    func memberWithoutParams() throws {
        let engine = S.engine("first-member")
        let policy = Decision.Policy(name: "first-member", digest: "x")
        let batch = Decision.Batch(group: "contacts", key: "contacts:u1:2026-03-10T10:00:00Z", flushAt: 1_773_136_830)
        let member = Decision(action: .batch, reason: "batched", deliverAt: batch.flushAt, type: "contact-updated", key: "k1",
                              batch: batch, notification: .init(body: "Ana updated their profile."), policy: policy)
        var other = member
        other.key = "k2"
        let flushed = try #require(engine.flush(batch.key, members: [member, other]))
        #expect(flushed.notification?.body == " and 1 other changed ( changes first).")
        #expect(flushed.notification?.link == "demo://contacts/")
    }

    @Test("a digest with `single: summary` shows its one member with `{others}` 0 and its instant param")
    func summaryDigestWithOneMember() throws {
        let engine = S.engine("first-member")
        let held = S.decide(S.request("weekly-note", at: "2026-03-10T10:00:00Z", now: Self.now, user: ["id": "u1"],
                                      permission: "granted", state: [:],
                                      params: ["noteId": "n-1", "when": "2026-03-10T10:00:00Z"]), engine: engine)
        #expect(held.action == .batch)
        let key = try #require(held.batch?.key)
        let flushed = try #require(engine.flush(key, members: [held]))
        #expect(flushed.notification?.body == "One note since Mar 10, 2026.")
        #expect(held.json().serialized().contains(#""batchParams":{"when":"2026-03-10T10:00:00Z"}"#))
    }

    @Test("a type no group names by `{first.…}` carries nothing: it pays nothing for the construct")
    func otherTypesCarryNothing() throws {
        let decision = S.decide(S.request("plain", at: "2026-03-10T10:00:00Z", now: Self.now, user: ["id": "u1"],
                                          permission: "granted", state: [:], params: ["name": "Ana"]),
                                engine: S.engine("first-member"))
        #expect(decision.action == .schedule)
        #expect(decision.notification?.presentation == nil)
        #expect(!decision.json().serialized().contains("batchParams"))
        // Rin: only the enrichment batch names its first member; other types carry nothing.
        let rin = S.engine("policies/rin")
        let followup = S.decide(ThreadBatchTests.followup("r-1", contact: "c-1", at: "2026-03-10T10:00:00-04:00"), engine: rin)
        #expect(followup.notification?.presentation?.batchParams.isEmpty ?? true)
    }
}
