#if Server
import HeraldContract
import HeraldEngine
import HeraldSyntax
import HTTPTypes
import Hummingbird

extension HeraldServer {
    /// `POST /v1/policies/{name}/prompt` and `…/explain`: pure, the request carries its own
    /// `history`; nothing is read from or written to the store.
    func addPolicyRoutes(to router: Router<ServeRequestContext>) {
        router.post("/v1/policies/:name/prompt") { request, context in
            let (_, engine) = try servedEngine(context)
            let json = try await body.object(request)
            let prompt: PromptRequest
            prompt = try APIError.decoding { () throws(RequestErrors) in try PromptRequest(json: json) }
            switch engine.prompt(prompt, now: prompt.now) {
            case .success(let decision): return Self.json(decision.json())
            case .failure(let errors): throw APIError.invalid(errors)
            }
        }
        router.post("/v1/policies/:name/explain") { request, context in
            let (policy, engine) = try servedEngine(context)
            let json = try await body.object(request)
            let decisionRequest: DecisionRequest
            decisionRequest = try APIError.decoding { () throws(RequestErrors) in try DecisionRequest(json: json) }
            switch engine.decide(decisionRequest, now: decisionRequest.now) {
            case .success(let decision):
                let sources = policy.sources
                let text = Explanation.text(decision, sourceLine: { path, line in
                    guard let file = sources[path], line >= 1, line <= file.lineStarts.count else { return nil }
                    return file.lineText(line)
                })
                return Self.json(["policy": .string(policy.name), "digest": .string(policy.digest ?? ""),
                                  "decision": decision.json(), "explanation": .string(text)])
            case .failure(let errors): throw APIError.invalid(errors)
            }
        }
        addStoreRoutes(to: router)
    }
}
#endif
