public import HeraldEngine
/// A `plan` request as read from JSON: the user's context once, plus the candidates.
///
/// ```json
/// { "now": "2026-03-08T08:00:00Z", "horizon": "7d",
///   "user": {...}, "prefs": {...}, "permission": "granted", "state": {...}, "history": [...],
///   "candidates": [ { "type": "N-MAINT-DUE-TODAY", "at": "…", "params": {...}, "subject": "…" } ] }
/// ```
/// `horizon` is seconds or a duration (`7d`, `48h`, `90m`); bounded by the policy's
/// `plan.horizon`, which is also its default (7 days without one).
public struct PlanRequest: Sendable {
    /// The user, shared by every candidate.
    public var user: UserRequest
    public var candidates: [CandidateRequest]
    public var now: Int
    /// Seconds; nil when the request gives none (`Engine.plan` then takes the policy's).
    public var horizon: Int?

    public init(user: UserRequest, candidates: [CandidateRequest], now: Int, horizon: Int? = nil) {
        self.user = user
        self.candidates = candidates
        self.now = now
        self.horizon = horizon
    }

    static let candidateFields = ["type", "at", "params", "subject"]
    static let userFields = ["user", "prefs", "permission", "state", "history"]

    /// Reads a plan request; every problem is reported (candidate fields as `candidates[i].…`).
    public static func parse(_ text: String) throws(RequestErrors) -> PlanRequest {
        try parse(json: RequestErrors.parseJSON(text, limits: .standard))
    }

    /// Reads a plan request from parsed JSON (see `parse(_:)`).
    public static func parse(json: JSON) throws(RequestErrors) -> PlanRequest {
        var reader = RequestReader()
        guard let request = reader.planRequest(json) else { throw reader.errors }
        return request
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

/// One candidate of a plan: a trigger as read from JSON.
public struct CandidateRequest: Sendable, Equatable {
    public var type: String
    public var at: Int
    /// The trigger's parameters; `{}` when absent.
    public var params: JSON
    public var subject: String?

    public init(type: String, at: Int, params: JSON = .object([]), subject: String? = nil) {
        self.type = type
        self.at = at
        self.params = params
        self.subject = subject
    }
}

extension RequestReader {
    /// A plan request; `also` names fields another request kind adds (a reconcile's `pending`).
    mutating func planRequest(_ json: JSON, also: [String] = []) -> PlanRequest? {
        guard let members = object(json, at: "", known: ["now", "horizon", "candidates"] + PlanRequest.userFields + also) else {
            return nil
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let now = instant(fields["now"], at: "now")
        var horizon: Int?
        switch fields["horizon"] {
        case nil: break
        case .int(let seconds)? where seconds >= 0: horizon = seconds
        case .string(let text)?:
            if let seconds = PlanRequest.parseDuration(text) { horizon = seconds } else {
                fail("horizon", "expected a duration such as `7d`, got \"\(text)\"")
            }
        case let other?:
            fail("horizon", "expected a duration such as `7d`, got \(other.kindName)")
        }
        let user = userRequest(fields)
        var candidates: [CandidateRequest] = []
        switch fields["candidates"] {
        case nil:
            fail("candidates", "missing required field")
        case let list?:
            guard let items = list.elements else {
                mismatch("candidates", "an array", list)
                break
            }
            for (index, item) in items.enumerated() {
                if let candidate = candidate(item, at: "candidates[\(index)]") { candidates.append(candidate) }
            }
        }
        guard errors.isEmpty, let now, let user else { return nil }
        return PlanRequest(user: user, candidates: candidates, now: now, horizon: horizon)
    }

    mutating func candidate(_ json: JSON, at path: String) -> CandidateRequest? {
        guard let members = object(json, at: path, known: nil) else { return nil }
        for member in members where !PlanRequest.candidateFields.contains(member.key) {
            fail(join(path, member.key), "unknown field `\(member.key)`; candidates hold type, at, params, subject")
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let type = string(fields["type"], at: join(path, "type"))
        let at = instant(fields["at"], at: join(path, "at"))
        let params = objectOrEmpty(fields["params"], at: join(path, "params"))
        let subject = optionalString(fields["subject"], at: join(path, "subject"))
        guard let type, let at else { return nil }
        return CandidateRequest(type: type, at: at, params: params, subject: subject)
    }
}
