// Fuzz target: the request decoder (HeraldContract `DecisionRequest.parse`) through `decide`,
// the decision's JSON and `herald explain`'s text, over the shipped bundles (the one that
// declares the request's type; handz otherwise). The input is request JSON, as
// `herald decide --request` reads it. See docs/fuzzing.md.
import FuzzSupport
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSyntax

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Seeds: docs/examples/*.json requests and every request of the shipped scenario tests.
    Seeds.writeIfRequested {
        Seeds.files(under: ["docs/examples"]) { $0.hasSuffix(".json") && !$0.hasSuffix(".decision.json") }.map(Seeds.read)
            + ShippedBundle.scenarioRequests()
    }
    _ = ShippedBundle.all
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // As the CLI reads a request file.
    let text = String(decoding: Fuzz.bytes(data, size), as: UTF8.self)
    let request: DecisionRequest
    do {
        request = try DecisionRequest.parse(text)
    } catch {
        if error.errors.isEmpty { Fuzz.fail("a request rejected without a reason") }
        return 0
    }

    // `json()` is read back to an equal request, also through its serialized text.
    let json = request.json()
    guard let reread = try? DecisionRequest(json: json), reread == request else {
        Fuzz.fail("request.json() does not read back to the same request: \(json.serialized())")
    }
    DecisionChecks.checkSerialization(json)

    let shipped = ShippedBundle.declaring(request.type)
    let engine = shipped.engine
    let result = engine.decide(request, now: request.now)
    // The same decision with a ledger the caller indexed (a service's path).
    let viaLedger = engine.decide(request, ledger: engine.ledger(request.history), now: request.now)
    switch (result, viaLedger) {
    case (.success(let decision), .success(let other)):
        if decision != other { Fuzz.fail("decide and decide(ledger:) differ:\n\(decision.json().serialized())\n\(other.json().serialized())") }
        DecisionChecks.check(decision, type: request.type, sources: shipped.sources)
    case (.failure(let errors), .failure(let other)):
        if errors.errors.isEmpty { Fuzz.fail("a request refused without a reason") }
        if errors != other { Fuzz.fail("decide and decide(ledger:) refuse differently: \(errors) / \(other)") }
    default:
        Fuzz.fail("decide and decide(ledger:) disagree on whether to decide")
    }
    return 0
}

