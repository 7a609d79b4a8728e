import HeraldContract
import HeraldEngine
import Testing

/// Requests and decisions at the ends of the range Herald reads and writes
/// (`RFC3339.instants`, 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z in UTC), and
/// instants of zones whose offset has seconds.
@Suite struct TimeRangeDecideTests {
    typealias S = DecideSupport

    static let outOfRange = "expected an instant from 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z in UTC"

    func errors(_ result: Result<Decision, RequestErrors>) -> [RequestError] {
        if case .failure(let errors) = result { return errors.errors }
        return []
    }

    func requestErrors(_ json: JSON) -> [RequestError] {
        do {
            _ = try DecisionRequest(json: json)
            return []
        } catch {
            return error.errors
        }
    }

    func request(_ at: String, now: String? = nil, history: [JSON] = []) -> JSON {
        ["type": "daily", "at": .string(at), "now": .string(now ?? "2026-03-10T12:00:00Z"), "user": ["id": "u1"],
         "history": .array(history)]
    }

    /// Found by fuzzing: these are well-formed, but name instants in years 10000 and 0.
    @Test(arguments: ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59"])
    func instantsOutsideTheRangeAreRequestErrors(_ text: String) {
        let message = "\(Self.outOfRange), got \"\(text)\""
        #expect(requestErrors(request(text)) == [RequestError(path: "at", message: message)])
        #expect(requestErrors(request("2026-03-10T12:00:00Z", now: text)) == [RequestError(path: "now", message: message)])
        let entry = S.entry("daily", key: "k", at: text)
        #expect(requestErrors(request("2026-03-10T12:00:00Z", history: [entry]))
            == [RequestError(path: "history[0].deliverAt", message: message)])
        // Instants the catalog declares: a param and a state field.
        let engine = S.engine()
        let session = S.request("session", params: ["at": .string(text)])
        #expect(errors(engine.decide(session, now: session.now)) == [RequestError(path: "params.at", message: message)])
        let state = S.request("daily", state: ["streak": 3, "unread": 2, "lastOpenedAt": .string(text)], params: ["count": 1])
        #expect(errors(engine.decide(state, now: state.now)) == [RequestError(path: "state.lastOpenedAt", message: message)])
        // Malformed text still gets the plain message.
        #expect(requestErrors(request("tomorrow")).map(\.message) == ["expected an RFC 3339 instant, got \"tomorrow\""])
    }

    @Test func decisionsThatWouldDeliverPastTheRangeAreRequestErrors() {
        let engine = S.engine()
        // 20:00Z on the last day: the next 19:00 (UTC, New York) is in year 10000.
        for zone in ["UTC", "America/New_York"] {
            let late = S.request("daily", at: "9999-12-31T20:00:00Z", prefs: ["timezone": .string(zone), "quietHours": nil],
                                 params: ["count": 1])
            let problems = errors(engine.decide(late, now: late.now))
            #expect(problems.map(\.path) == ["at"], "\(zone)")
            #expect(problems.first?.message.contains("9999-12-31T23:59:59Z") == true)
        }
        // An hour earlier the same reminder is delivered, and written back exactly.
        let early = S.request("daily", at: "9999-12-31T18:00:00Z", prefs: ["quietHours": nil], params: ["count": 1])
        let decision = S.decide(early)
        #expect(decision.json()["deliverAt"] == "9999-12-31T19:00:00Z")
    }

    @Test func localTimesPastYear9999AreWrittenInUTC() {
        // 09:00 on 10000-01-01 at +14:00 is 9999-12-31T19:00:00Z: deliverable, and its local
        // form would need a five-digit year, so `localDeliverAt` is written in UTC.
        let d = S.decide(S.request("morning", at: "9999-12-31T12:00:00Z", prefs: ["timezone": "Pacific/Kiritimati"]))
        #expect(d.deliverAt == RFC3339.instants.upperBound - 4 * 3600 - 59 * 60 - 59)
        #expect(d.json()["localDeliverAt"] == "9999-12-31T19:00:00Z")
    }

    @Test func offsetsWithSecondsAreWrittenInUTC() {
        // Africa/Monrovia was −00:44:30 until 1972: 19:00 local on 1970-06-01 is 19:44:30Z.
        let d = S.decide(S.request("daily", at: "1970-06-01T12:00:00Z",
                                   prefs: ["timezone": "Africa/Monrovia", "quietHours": nil], params: ["count": 1]))
        #expect(d.deliverAt == 13_089_600 + 7 * 3600 + 44 * 60 + 30)
        #expect(d.json()["deliverAt"] == "1970-06-01T19:44:30Z")
        #expect(d.json()["localDeliverAt"] == "1970-06-01T19:44:30Z")
        #expect(d.key == "daily:u1:1970-06-01")
    }

    @Test func aReminderInNewYorkIn2101KeepsDaylightSavingTime() {
        let d = S.decide(S.request("daily", at: "2101-07-15T12:00:00Z",
                                   prefs: ["timezone": "America/New_York", "quietHours": nil], params: ["count": 1]))
        #expect(d.json()["deliverAt"] == "2101-07-15T23:00:00Z")
        #expect(d.json()["localDeliverAt"] == "2101-07-15T19:00:00-04:00")
    }

    /// Every instant a decision writes reads back through the request parser: `deliverAt`,
    /// `localDeliverAt`, the batch's `flushAt` and the instant in its key, and the decision
    /// as a history entry. Requests span the whole range, half within two weeks of its ends,
    /// in zones with offsets of seconds, ±12 to +14 hours and half hours.
    @Test func everyWrittenInstantReadsBack() throws {
        let engine = S.engine()
        let zones = ["UTC", "America/New_York", "Africa/Monrovia", "Pacific/Kiritimati", "Etc/GMT+12",
                     "Australia/Lord_Howe", "Asia/Kathmandu", "Europe/London", "Pacific/Apia"]
        let types = ["daily", "morning", "session", "tip", "cooled", "weekly", "news-item", "otp"]
        let range = RFC3339.instants
        var rng = TimeTesting.SplitMix64(seed: 0x5EED_3339)
        var decided = 0, refused = 0
        for index in 0 ..< 3000 {
            let at: Int
            switch index % 4 {
            case 0: at = Int.random(in: range, using: &rng)
            case 1: at = range.lowerBound + Int.random(in: 0 ... 14 * 86_400, using: &rng)
            case 2: at = range.upperBound - Int.random(in: 0 ... 14 * 86_400, using: &rng)
            default: at = Int.random(in: -400_000_000 ... 100_000_000, using: &rng)   // Monrovia's −00:44:30 years
            }
            let type = types.randomElement(using: &rng)!
            let zone = zones.randomElement(using: &rng)!
            let atText = RFC3339.format(at, offsetSeconds: 0)
            var history: [JSON] = []
            if Bool.random(using: &rng) {
                let earlier = max(range.lowerBound, at - Int.random(in: 0 ... 3600, using: &rng))
                history.append(S.entry("tip", key: "t\(index)", at: RFC3339.format(earlier, offsetSeconds: 0)))
            }
            let sessionAt = min(range.upperBound, max(range.lowerBound, at + Int.random(in: -7200 ... 7200, using: &rng)))
            let request = S.request(type, at: atText, prefs: ["timezone": .string(zone)],
                                    params: type == "session" ? ["at": .string(RFC3339.format(sessionAt, offsetSeconds: 0))]
                                        : type == "news-item" ? ["id": "n1"] : type == "daily" ? ["count": 2] : [:],
                                    history: history)
            switch engine.decide(request, now: request.now) {
            case .failure(let errors):
                // Only a delivery past the end of the range is refused.
                #expect(errors.paths == ["at"] && at > range.upperBound - 14 * 86_400, "\(type) \(zone) \(atText): \(errors)")
                refused += 1
            case .success(let decision):
                decided += 1
                let json = decision.json()
                guard let deliverAt = decision.deliverAt, decision.action != .suppress else { continue }
                #expect(json["deliverAt"]?.stringValue.flatMap(RFC3339.parse) == deliverAt, "\(json)")
                #expect(json["localDeliverAt"]?.stringValue.flatMap(RFC3339.parse) == deliverAt, "\(json)")
                if let batch = decision.batch {
                    #expect(RFC3339.parse(RFC3339.format(batch.flushAt, offsetSeconds: 0)) == batch.flushAt)
                    let start = batch.key.split(separator: ":", maxSplits: 2).last.map(String.init) ?? ""
                    #expect(RFC3339.parse(start) != nil, "\(batch.key)")
                }
                // Fed back as history, the decision reads as it was written.
                let entry = S.entry(decision.type, key: decision.key ?? "k", at: json["deliverAt"]!.stringValue!,
                                    status: "scheduled", batch: decision.batch?.key)
                let again = try DecisionRequest(json: request.json().replacing("history", with: .array([entry])))
                #expect(again.history.first?.deliverAt == deliverAt)
            }
        }
        #expect(decided > 2000 && refused > 0)
    }
}

private extension JSON {
    /// The object with member `key` set to `value`.
    func replacing(_ key: String, with value: JSON) -> JSON {
        guard let members else { return self }
        return .object(members.filter { $0.key != key } + [JSON.Member(key, value)])
    }
}
