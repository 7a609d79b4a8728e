/// The JSON a plan is asked with: the user's context once, plus the candidates.
///
/// ```json
/// { "now": "2026-03-08T08:00:00Z", "horizon": "7d",
///   "user": {...}, "prefs": {...}, "permission": "granted", "state": {...}, "history": [...],
///   "candidates": [ { "type": "N-MAINT-DUE-TODAY", "at": "…", "params": {...}, "subject": "…" } ] }
/// ```
/// `horizon` is seconds or a duration (`7d`, `48h`, `90m`); bounded by the policy's
/// `plan.horizon`, which is also its default (7 days without one).
public struct PlanRequest: Sendable {
    public var candidates: [DecisionRequest]
    public var now: Int
    /// Seconds; nil when the request gives none (`Engine.plan` then takes the policy's).
    public var horizon: Int?

    static let candidateFields: Set<String> = ["type", "at", "params", "subject"]

    /// Reads a plan request; every problem is reported (candidate fields as `candidates[i].…`).
    public static func parse(_ text: String) throws(RequestErrors) -> PlanRequest {
        try parse(json: RequestErrors.parseJSON(text, limits: .standard))
    }

    /// Reads a plan request from parsed JSON (see `parse(_:)`).
    public static func parse(json: JSON) throws(RequestErrors) -> PlanRequest {
        guard let members = json.members else {
            throw RequestErrors([RequestError(path: "request", message: "expected an object, got \(json.kindName)")])
        }
        var errors: [RequestError] = []
        var seen: Set<String> = []
        let common = members.filter { $0.key != "candidates" && $0.key != "horizon" }
        var horizon: Int?
        switch json["horizon"] {
        case nil: break
        case .int(let seconds)? where seconds >= 0: horizon = seconds
        case .string(let text)?:
            if let seconds = parseDuration(text) { horizon = seconds } else {
                errors.append(RequestError(path: "horizon", message: "expected a duration such as `7d`, got \"\(text)\""))
            }
        case let other?:
            errors.append(RequestError(path: "horizon", message: "expected a duration such as `7d`, got \(other.kindName)"))
        }
        var candidates: [DecisionRequest] = []
        let items = json["candidates"]?.elements ?? []
        if json["candidates"] == nil { errors.append(RequestError(path: "candidates", message: "missing required field")) }
        for (index, item) in items.enumerated() {
            guard let fields = item.members else {
                errors.append(RequestError(path: "candidates[\(index)]", message: "expected an object, got \(item.kindName)"))
                continue
            }
            var merged = common
            for field in fields {
                if candidateFields.contains(field.key) {
                    merged.append(field)
                } else {
                    errors.append(RequestError(path: "candidates[\(index)].\(field.key)",
                                               message: "unknown field `\(field.key)`; candidates hold type, at, params, subject"))
                }
            }
            do {
                candidates.append(try DecisionRequest(json: .object(merged)))
            } catch {
                for problem in error.errors {
                    let root = String(problem.path.prefix { $0 != "." && $0 != "[" })
                    if candidateFields.contains(root) {
                        errors.append(RequestError(path: "candidates[\(index)].\(problem.path)", message: problem.message))
                    } else if seen.insert(problem.description).inserted {
                        errors.append(problem)
                    }
                }
            }
        }
        guard errors.isEmpty else { throw RequestErrors(errors) }
        let now = candidates.first?.now ?? json["now"]?.stringValue.flatMap(ContractTime.parseInstant) ?? 0
        return PlanRequest(candidates: candidates, now: now, horizon: horizon)
    }

    /// `7d`, `48h`, `1h30m`, `90s` → seconds.
    static func parseDuration(_ text: String) -> Int? {
        var total = 0, number: Int?
        for ch in text {
            if let digit = ch.wholeNumberValue, ch.isASCII {
                number = (number ?? 0) * 10 + digit
                if number! > 1_000_000_000 { return nil }
            } else {
                guard let n = number else { return nil }
                switch ch {
                case "s": total += n
                case "m": total += n * 60
                case "h": total += n * 3600
                case "d": total += n * 86_400
                case "w": total += n * 604_800
                default: return nil
                }
                number = nil
            }
        }
        return number == nil && !text.isEmpty ? total : nil
    }
}
