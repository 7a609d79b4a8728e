public import HeraldContract
public import HeraldEngine
public import HeraldSyntax

/// Invariants of a decision: its contract fields, its JSON, its citations and `herald explain`.
public enum DecisionChecks {
    /// Checks a decision made for a request of `type` by a bundle read from `sources`.
    public static func check(_ decision: Decision, type: String, sources: [String: SourceFile]) {
        if decision.type != type { Fuzz.fail("decided \(decision.type) for a request of \(type)") }
        if decision.reason.isEmpty { Fuzz.fail("a decision without a reason") }
        if decision.trace.isEmpty { Fuzz.fail("a decision without a trace") }
        if decision.action != .suppress, decision.deliverAt == nil { Fuzz.fail("\(decision.action) without deliverAt") }
        if decision.action == .batch, decision.batch == nil { Fuzz.fail("batch without a batch") }

        let json = decision.json()
        checkSerialization(json)

        // Every instant written reads back to the instant decided.
        if decision.action != .suppress, let deliverAt = decision.deliverAt {
            checkInstant(json["deliverAt"], deliverAt, offset: 0, "deliverAt")
            checkInstant(json["localDeliverAt"], deliverAt, offset: decision.utcOffset, "localDeliverAt")
        }
        if let batch = decision.batch {
            checkInstant(json["batch"]?["flushAt"], batch.flushAt, offset: 0, "batch.flushAt")
        }

        // Every citation names a line of a file the bundle was read from.
        var citations = decision.trace.compactMap(\.source)
        if let rule = decision.rule { citations.append(rule.source) }
        for citation in citations where !citation.isEmpty {
            checkCitation(citation, in: sources)
        }

        // `herald explain` over the same decision.
        _ = Explanation.text(decision) { path, line in
            guard let file = sources[path], line >= 1, line <= file.lineStarts.count else { return nil }
            return file.lineText(line)
        }
    }

    /// The serialized text (compact and pretty) parses back to the same JSON.
    public static func checkSerialization(_ json: JSON) {
        for pretty in [false, true] {
            let text = json.serialized(pretty: pretty)
            guard let parsed = try? JSON.parse(text), parsed == json else {
                Fuzz.fail("serialized JSON does not parse back (pretty: \(pretty)): \(text.prefix(400))")
            }
        }
    }

    /// A written instant parses back (RFC 3339) to the instant, whatever its year: a decision
    /// never delivers past 9999-12-31T23:59:59Z (that is a request error), and a local time
    /// in the year 10000 is written in UTC (docs/fuzzing.md, *Past findings*).
    static func checkInstant(_ written: JSON?, _ instant: Int, offset: Int, _ what: String) {
        guard let text = written?.stringValue else { Fuzz.fail("\(what) missing from the decision's JSON") }
        guard let parsed = RFC3339.parse(text) else { Fuzz.fail("\(what) `\(text)` is not RFC 3339") }
        if parsed != instant { Fuzz.fail("\(what) `\(text)` reads back as \(parsed), not \(instant)") }
    }

    /// `path:line:col` with a path of `sources`, a line of that file and a column on it.
    static func checkCitation(_ citation: String, in sources: [String: SourceFile]) {
        let parts = citation.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else {
            Fuzz.fail("citation `\(citation)` is not path:line:col")
        }
        let path = parts.dropLast(2).joined(separator: ":")
        guard let file = sources[path] else { Fuzz.fail("citation `\(citation)` names a file the bundle did not read") }
        guard line >= 1, line <= file.lineStarts.count, column >= 1, column <= file.lineText(line).unicodeScalars.count + 1 else {
            Fuzz.fail("citation `\(citation)` is outside \(path)")
        }
    }
}
