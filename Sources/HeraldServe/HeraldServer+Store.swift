#if Server
import Foundation
import HeraldContract
import HeraldEngine
import HeraldStore
import HTTPTypes
import Hummingbird
import NIOCore

extension HeraldServer {
    /// The routes that read or write the ledger store: `…/decide`, `…/plan`, `…/reconcile`,
    /// `POST /v1/events`, `GET /v1/users/{id}/ledger`, `DELETE /v1/users/{id}`.
    func addStoreRoutes(to router: Router<ServeRequestContext>) {
        router.post("/v1/policies/:name/decide") { request, context in
            let (policy, engine) = try servedEngine(context)
            let json = try await body.object(request)
            if json["history"] != nil {
                throw APIError(.unprocessableContent, code: "history_not_accepted",
                               message: "the server reads the user's ledger from its store; remove `history` from the request",
                               field: "history")
            }
            let decisionRequest: DecisionRequest
            decisionRequest = try APIError.decoding { () throws(RequestErrors) in try DecisionRequest(json: json) }
            return try await record("decide", user: decisionRequest.userID, policy: policy, engine: engine, request: request,
                                    context: context) { recorder, key, deadline in
                try await recorder.decide(decisionRequest, idempotencyKey: key, deadline: deadline)
            }
        }
        router.post("/v1/policies/:name/plan") { request, context in
            let (policy, engine) = try servedEngine(context)
            let json = try await body.object(request)
            let plan: PlanRequest
            plan = try APIError.decoding { () throws(RequestErrors) in try PlanRequest.parse(json: json) }
            let user = try Self.singleUser(plan)
            let inputs = try APIError.decoding { () throws(RequestErrors) in try engine.inputs(plan).get() }
            let started = ContinuousClock.now
            let records = try await storeCall("entries") { try await store.entries(user: user) }
            let history = records.filter(\.isLive).map(\.entry)
            let result = engine.plan(inputs.triggers, for: inputs.user.with(history: history), now: plan.now, horizon: plan.horizon)
            metrics.decideDuration(policy: policy.name, route: "plan", nanoseconds: Self.nanoseconds(since: started))
            switch result {
            case .success(let made): return Self.json(made.json())
            case .failure(let errors): throw APIError.invalid(errors)
            }
        }
        router.post("/v1/policies/:name/reconcile") { request, context in
            let (policy, engine) = try servedEngine(context)
            let json = try await body.object(request)
            let plan: PlanRequest
            plan = try APIError.decoding { () throws(RequestErrors) in try PlanRequest.parse(json: json) }
            _ = try Self.singleUser(plan)
            return try await record("reconcile", user: plan.user.id, policy: policy, engine: engine, request: request,
                                    context: context) { recorder, key, deadline in
                try await recorder.reconcile(plan, idempotencyKey: key, deadline: deadline)
            }
        }
        router.post("/v1/events") { request, _ in
            let json = try await body.object(request)
            let event = try EventRequest(json: json, now: Int(Date().timeIntervalSince1970))
            let record = try await storeCall("event") {
                try await store.applyEvent(user: event.user, key: event.key, status: event.event.status, at: event.at)
            }
            return Self.json(["user": .string(event.user), "entry": record.json()])
        }
        Self.get("/v1/users/:id/ledger", on: router) { _, context in
            let user = try context.userParameter()
            let records = try await storeCall("entries") { try await store.entries(user: user) }
            return Self.json(["user": .string(user), "entries": .array(records.map { $0.json() })])
        }
        router.delete("/v1/users/:id") { _, context in
            let user = try context.userParameter()
            let deleted = try await storeCall("forget") { try await store.forget(user: user) }
            return Self.json(["user": .string(user), "deleted": .int(deleted)])
        }
    }

    /// Runs one store call within the request timeout, timing it (`herald_store_duration_seconds`)
    /// and turning its errors into answers: an unreachable or failing store is 503 with
    /// `Retry-After` (the client retries; the store's client reconnects by itself), a call that
    /// outlasts the timeout is 503 `timeout` (the call is cancelled; a retry with the same
    /// `Idempotency-Key` gets the stored answer if it did commit), a bad request is a 4xx.
    func storeCall<Value: Sendable>(_ operation: String, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let started = ContinuousClock.now
        defer { metrics.storeDuration(operation: operation, nanoseconds: Self.nanoseconds(since: started)) }
        do {
            return try await Deadline.run(within: configuration.requestTimeout, body)
        } catch let error as APIError where error.code == APIError.timeout.code {
            metrics.storeError(operation: operation, kind: "timeout")
            logger.warning("store call timed out", metadata: ["operation": .string(operation)])
            throw error
        } catch let error as RequestErrors {
            throw APIError.invalid(error)
        } catch let error as StoreError {
            let apiError = storeError(error)
            metrics.storeError(operation: operation, kind: apiError.status == .serviceUnavailable ? "unavailable" : "rejected")
            if apiError.status.code >= 500 {
                logger.warning("store call failed", metadata: ["operation": .string(operation), "error": .string(error.description)])
            }
            throw apiError
        }
    }

    func storeError(_ error: StoreError) -> APIError {
        switch error.code {
        case .unknownKey:
            APIError(.notFound, code: "unknown_key", message: error.message, field: "key")
        case .missingUser:
            APIError(.unprocessableContent, code: "invalid_request", message: error.message, field: "user.id")
        case .keyConflict:
            APIError(.conflict, code: "key_conflict", message: error.message)
        case .deadlinePassed:
            APIError.timeout
        case .unreachable, .databaseFailed:
            APIError(.serviceUnavailable, code: "store_unavailable", message: "the ledger store is unavailable: \(error.message)",
                     retryAfter: configuration.retryAfterSeconds)
        case .corruptDatabase, .schemaTooNew, .badURL:
            APIError(.serviceUnavailable, code: "store_failed", message: "the ledger store cannot be used: \(error.message)",
                     retryAfter: configuration.retryAfterSeconds * 10)
        @unknown default:
            APIError(.serviceUnavailable, code: "store_failed", message: error.message, retryAfter: configuration.retryAfterSeconds)
        }
    }

    /// nil when the store can record (a write, rolled back); else what is wrong.
    func storeProblem() async -> String? {
        do {
            try await Deadline.run(within: configuration.requestTimeout) { try await store.checkWritable() }
            return nil
        } catch {
            return "the ledger store cannot record: \(error)"
        }
    }

    /// The stored response bytes, as they were first sent (a replay is byte for byte the same).
    static func raw(_ text: String, replayed: Bool) -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(text)
        buffer.writeString("\n")
        var headers: HTTPFields = [.contentType: "application/json"]
        if replayed { headers[.idempotentReplayed] = "true" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// `Idempotency-Key`: 1 to 200 printable ASCII characters, or absent.
    static func idempotencyKey(_ request: Request) throws -> String? {
        guard let key = request.headers[.idempotencyKey] else { return nil }
        guard (1...200).contains(key.utf8.count), key.utf8.allSatisfy({ (33...126).contains($0) }) else {
            throw APIError(.badRequest, code: "invalid_idempotency_key",
                           message: "`Idempotency-Key` must be 1 to 200 printable ASCII characters without spaces", field: "Idempotency-Key")
        }
        return key
    }

    /// A decide-and-record route's unit: the request's idempotency key, the recorder's call as a
    /// store call (503 on a store failure), the duration and decision metrics, the decision log,
    /// and the recorded response (`Idempotent-Replayed` on a replay).
    func record(_ route: String, user: String, policy: ServedPolicy, engine: Engine, request: Request, context: ServeRequestContext,
                _ unit: @escaping @Sendable (DecisionRecorder, String?, ContinuousClock.Instant) async throws -> RecordedDecision) async throws -> Response {
        let key = try Self.idempotencyKey(request)
        let started = ContinuousClock.now
        let recorder = policy.recorder ?? DecisionRecorder(engine: engine, store: store)
        // The unit gives up at the request's limit, so a 503 `timeout` is not followed by a write
        // (but for a unit already committing at that instant: the answer says to retry with the key).
        let deadline = started + configuration.requestTimeout
        let recorded = try await storeCall(route) { try await unit(recorder, key, deadline) }
        metrics.decideDuration(policy: policy.name, route: route, nanoseconds: Self.nanoseconds(since: started))
        for decision in recorded.decisions {
            metrics.decision(policy: policy.name, action: decision.action.rawValue, reason: decision.reason)
        }
        decisionLog?.append(requestID: Self.requestID(context), policy: policy.name, digest: policy.digest ?? "",
                            route: route, user: user, replayed: recorded.replayed, response: recorded.response)
        return Self.raw(recorded.response, replayed: recorded.replayed)
    }

    /// The one user every candidate of a plan is for.
    static func singleUser(_ plan: PlanRequest) throws -> String {
        guard !plan.candidates.isEmpty else {
            throw APIError(.unprocessableContent, code: "invalid_request", message: "a plan needs at least one candidate", field: "candidates")
        }
        let user = plan.user.id
        if user.isEmpty {
            throw APIError(.unprocessableContent, code: "invalid_request", message: "the request's `user.id` is empty: a store records by user", field: "user.id")
        }
        return user
    }

    static func requestID(_ context: ServeRequestContext) -> String {
        context.requestID
    }

    static func nanoseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}
#endif
