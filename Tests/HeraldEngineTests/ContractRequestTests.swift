import Testing
import HeraldContract
@testable import HeraldEngine

@Suite struct ContractRequestTests {
    /// The example of `docs/decisions.md`.
    static let exampleRequest = #"""
    {
      "type": "N-MAINT-DUE-TODAY",
      "at": "2026-03-08T17:45:00Z",
      "now": "2026-03-08T17:45:02.125Z",
      "user": { "id": "u-1842", "account": true, "tier": "pro" },
      "prefs": {
        "timezone": "Europe/Berlin",
        "pausedAll": false,
        "categories": { "maintenance": true, "premium": false },
        "channels": { "sms": false },
        "quietHours": { "start": "22:00", "end": "07:00" },
        "reminderTime": "19:00",
        "trainingDays": ["mon", "wed", "fri"],
        "maxPerDay": 2,
        "muted": ["contact-7"]
      },
      "permission": "granted",
      "state": { "maintenance": { "dueToday": 3, "overdue": 0, "lastOpenedAt": "2026-03-07T08:12:00Z" } },
      "params": { "count": 3 },
      "subject": "u-1842",
      "history": [
        { "key": "N-MAINT-DUE-TODAY:u-1842:2026-03-07", "type": "N-MAINT-DUE-TODAY", "subject": "u-1842",
          "channel": "local", "deliverAt": "2026-03-07T18:00:00Z", "status": "opened" },
        { "key": "N-MASTERY-CHECKPOINT:u-1842:2026-03-08", "type": "N-MASTERY-CHECKPOINT",
          "channel": "local", "deliverAt": "2026-03-08T09:00:00+01:00", "status": "delivered", "batch": "summary:u-1842:2026-03-08" }
      ]
    }
    """#

    @Test func decodesTheExample() throws {
        let request = try DecisionRequest.parse(Self.exampleRequest)
        #expect(request.type == "N-MAINT-DUE-TODAY")
        #expect(request.at == 1_772_991_900)
        #expect(request.now == 1_772_991_902)
        #expect(request.userID == "u-1842")
        #expect(request.user["tier"] == "pro")
        #expect(request.permission == .granted)
        #expect(request.subject == "u-1842")
        #expect(request.state["maintenance"]?["dueToday"] == 3)
        #expect(request.params["count"] == 3)
        let prefs = request.prefs
        #expect(prefs.timezone == "Europe/Berlin")
        #expect(prefs.pausedAll == false)
        #expect(prefs.categories == ["maintenance": true, "premium": false])
        #expect(prefs.channels == ["sms": false])
        #expect(prefs.types == [:])
        #expect(prefs.quietHours == .window(start: 22 * 3600, end: 7 * 3600))
        #expect(prefs.reminderTime == 19 * 3600)
        #expect(prefs.trainingDays == [1, 3, 5])
        #expect(prefs.maxPerDay == 2)
        #expect(prefs.muted == ["contact-7"])
        #expect(request.history.count == 2)
        #expect(request.history[0] == HistoryEntry(
            key: "N-MAINT-DUE-TODAY:u-1842:2026-03-07", type: "N-MAINT-DUE-TODAY", subject: "u-1842",
            channel: "local", deliverAt: 1_772_906_400, status: .opened))
        #expect(request.history[1].deliverAt == 1_772_956_800)
        #expect(request.history[1].batchKey == "summary:u-1842:2026-03-08")
        #expect(request.history[1].subject == nil)
    }

    @Test func minimalRequestTakesDefaults() throws {
        let request = try DecisionRequest.parse(#"{"type":"T","at":"2026-01-01T00:00:00Z","now":"2026-01-01T00:00:00Z","user":{"id":"u"}}"#)
        #expect(request.prefs == PreferencesInput())
        #expect(request.prefs.quietHours == nil)
        #expect(request.permission == .unknown)
        #expect(request.state == [:])
        #expect(request.params == [:])
        #expect(request.subject == nil)
        #expect(request.history.isEmpty)
    }

    @Test func nullQuietHoursMeansNone() throws {
        let request = try DecisionRequest.parse(#"""
        {"type":"T","at":"2026-01-01T00:00:00Z","now":"2026-01-01T00:00:00Z","user":{"id":"u"},
         "prefs":{"quietHours":null},"subject":null}
        """#)
        #expect(request.prefs.quietHours == .off)
        #expect(request.subject == nil)
    }

    @Test func collectsEveryFieldError() {
        let text = #"""
        {
          "type": 7,
          "at": "tomorrow",
          "user": { "tier": "pro" },
          "prefz": {},
          "prefs": {
            "pausedAll": "yes",
            "quietHours": { "start": "10pm" },
            "trainingDays": ["monday", "tue"],
            "maxPerDay": -1,
            "categories": { "x": 1 },
            "reminder_time": "19:00"
          },
          "permission": "yes",
          "state": [],
          "history": [
            { "key": "k", "type": "T", "deliverAt": "2026-03-08T19:00:00Z", "status": "sent" },
            { "key": "k", "type": "T", "deliverAt": "2026-03-08T19:00:00Z", "status": "delivered" },
            { "key": "k", "type": "T", "deliverAt": "2026-03-08T19:00:00Z", "status": "delivered" },
            { "type": "T", "deliverAt": "tomorrow", "status": "delivered", "chanel": "local" },
            { "key": "k", "type": "T", "deliverAt": "9999-12-31T23:59:59-23:59", "status": "delivered" }
          ]
        }
        """#
        do {
            _ = try DecisionRequest.parse(text)
            Issue.record("expected errors")
        } catch {
            let lines = error.errors.map(\.description)
            #expect(lines == [
                "prefz: unknown field `prefz`; did you mean `prefs`?",
                "type: expected a string, got 7",
                "at: expected an RFC 3339 instant, got \"tomorrow\"",
                "now: missing required field",
                "user.id: missing required field",
                "prefs.pausedAll: expected true or false, got \"yes\"",
                "prefs.quietHours.start: expected a time of day \"HH:MM\", got \"10pm\"",
                "prefs.quietHours.end: missing required field",
                "prefs.trainingDays[0]: expected a weekday (mon, tue, wed, thu, fri, sat, sun), got \"monday\"",
                "prefs.maxPerDay: expected a non-negative integer, got -1",
                "prefs.categories.x: expected true or false, got 1",
                "permission: expected one of granted, denied, unknown, provisional, got \"yes\"",
                "state: expected an object, got an array",
                "history[0].status: expected one of scheduled, delivered, opened, dismissed, cancelled, got \"sent\"",
                "history[3].chanel: unknown field `chanel`; did you mean `channel`?",
                "history[3].key: missing required field",
                "history[3].deliverAt: expected an RFC 3339 instant, got \"tomorrow\"",
                "history[4].deliverAt: expected an instant from 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z in UTC, got \"9999-12-31T23:59:59-23:59\"",
            ])
        }
    }

    @Test func rejectsNonObjectAndBadJSON() {
        #expect(throws: RequestErrors([RequestError(path: "request", message: "expected an object, got an array")])) {
            try DecisionRequest.parse("[]")
        }
        #expect(throws: RequestErrors([RequestError(path: "request", message: "invalid JSON at 1:2: expected a string key, got end of input")])) {
            try DecisionRequest.parse("{")
        }
    }

    @Test func longStringsAreShortenedInMessages() {
        let long = String(repeating: "x", count: 100)
        do {
            _ = try DecisionRequest(json: ["type": "T", "at": .string(long), "now": "2026-01-01T00:00:00Z", "user": ["id": "u"]])
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.first?.message == "expected an RFC 3339 instant, got \"\(String(repeating: "x", count: 40))…\"")
        }
    }

    @Test func roundTripsThroughJSON() throws {
        let request = try DecisionRequest.parse(Self.exampleRequest)
        let again = try DecisionRequest(json: request.json())
        #expect(again == request)
        let text = request.json().serialized(pretty: true)
        #expect(try DecisionRequest.parse(text) == request)
        #expect(try DecisionRequest.parse(text).json().serialized() == request.json().serialized())
    }
}
