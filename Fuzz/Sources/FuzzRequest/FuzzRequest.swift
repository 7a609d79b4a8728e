// Fuzz target: HeraldContract's plan, reconcile and prompt readers (`PlanRequest.parse`,
// `ReconcileRequest.parse`, `PromptRequest.parse`) through the engine's plan, reconcile and
// prompt and the JSON of their results, over the shipped bundles. The first byte of an input
// picks the reader (`p` plan, `r` reconcile, anything else prompt); the rest is the request
// JSON, as `herald plan`/`reconcile`/`prompt --request` read it. See docs/fuzzing.md.
import FuzzSupport
import HeraldContract
import HeraldEngine

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Seeds: each shipped scenario request as a plan of one candidate, a reconcile of that plan
    // against nothing pending, and a prompt for its user.
    Seeds.writeIfRequested {
        Seeds.files(under: ["docs/examples"]) { $0.hasSuffix("reconcile-restore.json") }.map { Array("r".utf8) + Seeds.read($0) }
            + ShippedBundle.scenarioRequests().flatMap { decide in
                Seeds.requests(madeOf: decide).map { Array((["plan": "p", "reconcile": "r"][$0.route] ?? "q").utf8) + $0.body }
            }
    }
    _ = ShippedBundle.all
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Fuzz.bytes(data, size)
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    switch bytes[0] {
    case UInt8(ascii: "p"):
        guard let request = parsed({ () throws(RequestErrors) in try PlanRequest.parse(text) }) else { return 0 }
        let type = request.candidates.first?.type ?? ""
        for shipped in [ShippedBundle.declaring(type), ShippedBundle.all[0]] {
            checked(shipped.engine.plan(request)) { plan in DecisionChecks.checkSerialization(plan.json()) }
        }
    case UInt8(ascii: "r"):
        guard let request = parsed({ () throws(RequestErrors) in try ReconcileRequest.parse(text) }) else { return 0 }
        let shipped = ShippedBundle.declaring(request.plan.candidates.first?.type ?? "")
        checked(shipped.engine.reconcile(request)) { result in
            DecisionChecks.checkSerialization(result.plan.json())
            DecisionChecks.checkSerialization(result.reconciliation.json())
            // Every pending entry is kept, updated or cancelled (`Reconciliation`), and no other.
            let pending = Set(request.pending.map(\.key))
            let reconciliation = result.reconciliation
            let handled = Set(reconciliation.keep.map(\.key) + reconciliation.update.map(\.pending.key) + reconciliation.cancel.map(\.key))
            if handled != pending { Fuzz.fail("pending \(pending.sorted()) but kept, updated or cancelled \(handled.sorted())") }
        }
    default:
        guard let request = parsed({ () throws(RequestErrors) in try PromptRequest.parse(text) }) else { return 0 }
        for shipped in ShippedBundle.all {
            checked(shipped.engine.prompt(request, now: request.now)) { decision in DecisionChecks.checkSerialization(decision.json()) }
        }
    }
    return 0
}

/// The request, or nil when refused (with at least one reason).
func parsed<Request>(_ parse: () throws(RequestErrors) -> Request) -> Request? {
    do {
        return try parse()
    } catch {
        if error.isEmpty { Fuzz.fail("a request rejected without a reason") }
        return nil
    }
}

/// Checks a result: a value goes to `check`, a refusal must say why.
func checked<Value>(_ result: Result<Value, RequestErrors>, _ check: (Value) -> Void) {
    switch result {
    case .success(let value): check(value)
    case .failure(let errors): if errors.isEmpty { Fuzz.fail("a request refused without a reason") }
    }
}
