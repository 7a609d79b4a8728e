import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldStore
import Testing

/// The params a batch's copy names of its first member (`{first.<param>}`, docs/seeds.md P11)
/// travel in the decision's JSON (`notification.batchParams`): a store keeps them with the
/// stored response, without a column of its own, and a replay returns them byte for byte.
@Suite struct FirstMemberStoreTests {
    static func engine() throws -> Engine {
        let path = StoreFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/engine/first-member").path
        let result = Validator.validate(path, lints: false)
        guard let bundle = result.bundle else { throw StoreFixtures.FixtureError(message: "\(result.diagnostics.items)") }
        return Engine(bundle: bundle)
    }

    static func request(_ type: String, id: String, name: String, at: Int) -> DecisionRequest {
        DecisionRequest(type: type, at: at, now: at, user: ["id": "u1"], permission: .granted,
                        params: ["contactId": .string(id), "name": .string(name), "changes": .int(2)])
    }

    /// `notification.batchParams.name` of a stored response.
    static func carriedName(_ response: String) throws -> String? {
        guard case .object(let decision) = try JSON.parse(response),
              case .object(let notification)? = decision.first(where: { $0.key == "notification" })?.value,
              case .object(let params)? = notification.first(where: { $0.key == "batchParams" })?.value,
              case .string(let name)? = params.first(where: { $0.key == "name" })?.value else { return nil }
        return name
    }

    @Test("a batch's first-member params survive the store: recorded, replayed, flushed", arguments: StoreKind.allCases)
    func roundTrip(_ kind: StoreKind) async throws {
        let engine = try Self.engine()
        let recorder = DecisionRecorder(engine: engine, store: try kind.make())
        let at = StoreFixtures.monday
        let first = try await recorder.decide(Self.request("contact-updated", id: "c-1", name: "Ana Ruiz", at: at), idempotencyKey: "r1")
        let second = try await recorder.decide(Self.request("contact-merged", id: "c-2", name: "Bo Lind", at: at + 20), idempotencyKey: "r2")
        #expect(second.decisions.first?.action == .batch)
        #expect(try Self.carriedName(first.response) == "Ana Ruiz")
        #expect(try Self.carriedName(second.response) == "Bo Lind")
        // A retry gets the stored bytes back, params included.
        let replay = try await recorder.decide(Self.request("contact-updated", id: "c-1", name: "Ana Ruiz", at: at), idempotencyKey: "r1")
        #expect(replay.replayed && replay.response == first.response)
        // The ledger keeps both entries under the batch's key, the batch's opener included.
        let key = try #require(second.decisions.first?.batch?.key)
        #expect(try await recorder.ledger(user: "u1").compactMap(\.entry.batchKey) == [key])
        // The caller's decisions flush with the first member's name.
        let members = engine.batchMembers(of: key, among: first.decisions + second.decisions)
        let flushed = try #require(engine.flush(key, members: members))
        #expect(flushed.notification?.body == "Ana Ruiz and 1 other changed (2 changes first).")
    }
}
