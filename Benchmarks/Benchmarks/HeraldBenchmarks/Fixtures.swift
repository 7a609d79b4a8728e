import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy

/// Repository paths, found from this file's location (Benchmarks/Benchmarks/HeraldBenchmarks/).
enum Repo {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func policy(_ name: String) -> String { root + "/policies/" + name }
    static let bundles = ["handz", "rin", "urbannest", "kwilt", "crescender"]
}

enum Fixtures {
    /// Loads, compiles and validates a bundle; traps when it is invalid (a benchmark of a broken
    /// bundle would measure nothing).
    static func bundle(_ path: String) -> PolicyBundle {
        let result = Validator.validate(path)
        guard let bundle = result.bundle else {
            fatalError("invalid bundle \(path): \(result.diagnostics.map { "\($0.code.id) \($0.message)" })")
        }
        return bundle
    }

    static let handz = Engine(bundle: bundle(Repo.policy("handz")))
    static let rin = Engine(bundle: bundle(Repo.policy("rin")))

    /// 2026-03-10T16:00:00Z = 12:00 in New York (EDT, UTC-4): a Tuesday afternoon.
    static let noon = 1_773_158_400
    static let day = 86_400

    // MARK: Histories

    /// `count` delivered entries of the bundle's types, one an hour going back from two days
    /// before `noon` (so none falls in today's caps: every history size gives the same decision).
    static func history(_ count: Int, types: [String], user: String = "u1") -> [HistoryEntry] {
        (0..<count).map { i in
            let type = types[i % types.count]
            let at = noon - 2 * day - i * 3600
            return HistoryEntry(key: "\(type):\(user):h\(i)", type: type, subject: "s\(i % 50)", channel: "push",
                                deliverAt: at, status: .delivered)
        }
    }

    static let handzTypes = ["N-MAINT-OVERDUE", "N-PRACTICE-SCHEDULED", "N-MASTERY-CHECKPOINT", "N-BILLING-TRIAL-END"]
    static let rinTypes = ["score.updated", "contacts.enrichment", "premium.who_viewed", "security.new_signin"]

    // MARK: Handz scenarios

    static let handzUser: JSON = ["id": "u1", "account": true, "tier": "free"]
    static let newYork = PreferencesInput(timezone: "America/New_York")

    /// N-MAINT-DUE-TODAY at noon: scheduled at the 19:00 reminder time.
    static func handzDueToday(history: [HistoryEntry]) -> DecisionRequest {
        DecisionRequest(type: "N-MAINT-DUE-TODAY", at: noon, now: noon, user: handzUser, prefs: newYork,
                        permission: .granted, state: ["maintenance": ["dueToday": 2, "overdue": 0]],
                        params: ["count": 2], history: history)
    }

    /// The 10th N-INBOX-NEW-IMPORT of a burst: nine imports in the last nine minutes, the last
    /// 20 s ago, so `global-burst` (1/min, defer) spaces it out.
    static func handzInboxBurst(history: [HistoryEntry]) -> DecisionRequest {
        var h = history
        for i in 0..<9 {
            h.append(HistoryEntry(key: "N-INBOX-NEW-IMPORT:imp\(i)", type: "N-INBOX-NEW-IMPORT", subject: "imp\(i)",
                                  channel: "push", deliverAt: noon - 20 - (8 - i) * 60, status: .delivered))
        }
        return DecisionRequest(type: "N-INBOX-NEW-IMPORT", at: noon, now: noon, user: handzUser, prefs: newYork,
                               permission: .granted, state: ["inbox": ["blockedSenders": ["x9"]]],
                               params: ["importId": "imp9", "senderId": "s1", "senderName": "Kai",
                                        "flowName": "Guard passes", "abuseFlagged": false],
                               history: h)
    }

    /// N-MAINT-DUE-TODAY with a 23:00 reminder time: inside 22:00–07:00 quiet hours, deferred.
    static func handzQuiet(history: [HistoryEntry]) -> DecisionRequest {
        var prefs = newYork
        prefs.reminderTime = 23 * 3600
        var r = handzDueToday(history: history)
        r.prefs = prefs
        return r
    }

    // MARK: Rin scenarios

    static let rinUser: JSON = ["id": "u1", "premium": true]

    /// reminder.followup due at 17:00 today: scheduled at its instant.
    static func rinReminder(history: [HistoryEntry]) -> DecisionRequest {
        DecisionRequest(type: "reminder.followup", at: noon, now: noon, user: rinUser, prefs: newYork,
                        permission: .granted,
                        params: ["reminderId": "r1", "contactId": "c1", "remindAt": .string("2026-03-10T21:00:00Z"),
                                 "name": "Ana", "note": ""],
                        history: history)
    }

    /// contacts.dedup_ready after five non-security notifications today: `daily-digest` (5/day)
    /// sends it to the daily digest.
    static func rinCappedBurst(history: [HistoryEntry]) -> DecisionRequest {
        var h = history
        for i in 0..<5 {
            h.append(HistoryEntry(key: "premium.who_viewed:b\(i)", type: "premium.who_viewed", channel: "push",
                                  deliverAt: noon - 3600 - i * 600, status: .delivered))
        }
        return DecisionRequest(type: "contacts.dedup_ready", at: noon, now: noon, user: rinUser, prefs: newYork,
                               permission: .granted, params: ["count": 3], history: h)
    }

    /// reminder.followup at 23:30 with quiet hours 22:00–07:00 in the request: deferred.
    static func rinQuiet(history: [HistoryEntry]) -> DecisionRequest {
        var prefs = newYork
        prefs.quietHours = .window(start: 22 * 3600, end: 7 * 3600)
        var r = rinReminder(history: history)
        r.prefs = prefs
        r.params = ["reminderId": "r1", "contactId": "c1", "remindAt": .string("2026-03-11T03:30:00Z"),
                    "name": "Ana", "note": ""]
        return r
    }

    // MARK: Generated catalogs

    /// A one-file bundle with `count` types spread over 10 categories, each with params, an
    /// eligibility expression, a suppression rule, a cap and copy; plus global caps, quiet hours
    /// and a batch group. Written to a temporary directory; returns the file's path and size.
    static func generatedBundle(types count: Int) -> (path: String, bytes: Int) {
        var y = """
        app: { name: Gen, scheme: gen }
        name: gen-\(count)
        channels:
          push: { kind: push }
          in_app: { kind: in_app, permission: false }
        categories:

        """
        for c in 0..<10 { y += "  c\(c): { title: \"Category \(c)\" }\n" }
        y += """
        state:
          items: int
          lastOpenedAt: instant?
        user:
          account: bool
          tier: enum(free, pro)
        reasons:
          nothing_due: { description: "nothing is due" }
        routes:
          home: { url: "gen://home" }
          item: { url: "gen://items/{id}", params: { id: string } }
        defaults:
          timezone: UTC
          quietHours: { start: "22:00", end: "07:00" }
          maxPerDay: 3
        quietHours:
          during: defer
        caps:
          - { id: global-hard, scope: global, max: 10, per: day }
          - { id: global-burst, scope: global, max: 1, per: 1m, over: defer }

        """
        // Types go in files of at most 1,000 (a file may not exceed 4 MiB).
        var files: [String] = [y]
        for i in 0..<count {
            if i % 1_000 == 0 { files.append("types:\n") }
            let id = String(format: "t-%05d", i)
            files[files.count - 1] += """
              \(id):
                category: c\(i % 10)
                channels: [push]
                fallback: in_app
                params:
                  count: int
                  itemId: string
                eligible: "user.account && user.tier in ['free', 'pro']"
                caps:
                  - { id: \(id)-daily, max: 2, per: day }
                suppress:
                  - { id: \(id)-none, when: "params.count == 0 && state.items == 0", reason: nothing_due }
                copy:
                  title: "Type \(i)"
                  body: "{count, plural, one {# item is} other {# items are}} waiting for you."
                link: { route: item, id: "{itemId}" }

            """
        }
        let dir = NSTemporaryDirectory() + "herald-bench-\(count)-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var bytes = 0
        for (index, text) in files.enumerated() {
            let name = index == 0 ? "bundle.yaml" : String(format: "types-%02d.yaml", index)
            _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8))
            bytes += text.utf8.count
        }
        return (dir, bytes)
    }

    // MARK: Long lines

    /// One-file bundles that are one long line (issue 15, items 2 and 6): reading must be linear
    /// in a line's length, and a file over the 4 MiB limit is rejected from its size alone.
    enum OneLine: String, CaseIterable {
        /// `v: [0,1,…,89999]`: 529 KB, read whole (took 22 s when positions rescanned the line).
        case numbers = "90,000 numbers 529 KB"
        /// A flow sequence of numbers filling 4 MiB: stops at the 100,000-node limit (H0112).
        case nodeLimit = "4 MiB numbers node limit"
        /// Quoted strings filling 4 MiB, under the node limit: read whole.
        case strings = "4 MiB quoted strings"
        /// 50 MB (sparse): over the size limit, rejected before reading (H0110).
        case oversized = "50 MB over the limit"

        /// Writes the bundle to a temporary directory and returns the directory.
        func write() -> String {
            let dir = NSTemporaryDirectory() + "herald-bench-line-\(self)-\(ProcessInfo.processInfo.processIdentifier)"
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let path = dir + "/policy.yaml"
            let limit = 4 << 20
            var text: String
            switch self {
            case .numbers:
                text = "v: [" + (0..<90_000).map(String.init).joined(separator: ",") + "]\n"
            case .nodeLimit, .strings:
                text = "v: ["
                var i = 0
                while text.utf8.count < limit - 200 {
                    text += self == .nodeLimit ? "\(i), " : "\"item \(i): some text of a realistic length for copy\", "
                    i += 1
                }
                text += "0]\n"
            case .oversized:
                _ = FileManager.default.createFile(atPath: path, contents: Data("a: ".utf8))
                if let handle = FileHandle(forWritingAtPath: path) {
                    try? handle.truncate(atOffset: 50_000_000)
                    try? handle.close()
                }
                return dir
            }
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return dir
        }
    }

    static func generatedRequest(history: [HistoryEntry]) -> DecisionRequest {
        DecisionRequest(type: "t-00007", at: noon, now: noon, user: ["id": "u1", "account": true, "tier": "pro"],
                        permission: .granted, state: ["items": 3], params: ["count": 2, "itemId": "i1"],
                        history: history)
    }

    static func genHistory(_ count: Int, types: Int) -> [HistoryEntry] {
        let ids = (0..<min(types, 50)).map { String(format: "t-%05d", $0) }
        return history(count, types: ids)
    }

    /// A plan of `count` Handz candidates over seven days for one user: due-today reminders,
    /// inbox imports, mastery checkpoints, spread over the horizon.
    static func planRequest(_ count: Int, history: [HistoryEntry]) -> PlanRequest {
        let user = UserRequest(user: handzUser, prefs: newYork, permission: .granted,
                               state: ["maintenance": ["dueToday": 2, "overdue": 0], "inbox": ["blockedSenders": ["x9"]],
                                       "mastery": ["plans": ["p1": "active", "p2": "active"], "reminders": [:]]],
                               history: history)
        let candidates = (0..<count).map { i in
            let at = noon + (i * 7 * day) / count
            switch i % 3 {
            case 0:
                return CandidateRequest(type: "N-MAINT-DUE-TODAY", at: at, params: ["count": 2])
            case 1:
                return CandidateRequest(type: "N-INBOX-NEW-IMPORT", at: at,
                                        params: ["importId": .string("imp-\(i)"), "senderId": "s1", "senderName": "Kai",
                                                 "flowName": "Guard passes", "abuseFlagged": false])
            default:
                return CandidateRequest(type: "N-MASTERY-CHECKPOINT", at: at,
                                        params: ["planId": .string("p\(i % 3)"), "planName": "Closed guard"])
            }
        }
        return PlanRequest(user: user, candidates: candidates, now: noon, horizon: 7 * day)
    }
}
