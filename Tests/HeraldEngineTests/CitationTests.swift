import Foundation
import HeraldContract
@testable import HeraldEngine
import HeraldPolicy
import Testing

/// Every citation a decision carries points at the YAML key that decided: the cited
/// `path:line:col` holds that key at that column (issue 15: `quietHours` was cited at the first
/// key of `defaults`, `timezone: UTC`).
///
/// The kinds are the engine's own fields, found by reflection (`tableCitations`), so a kind
/// added to the engine without a scenario here fails `everyCitationFieldIsAKind` or
/// `everyKindHasAScenario`. Each scenario drives a real decision over a shipped bundle
/// (policies/) or an engine fixture (Tests/Fixtures/engine), then opens the cited file.
@Suite struct CitationTests {
    typealias S = DecideSupport

    /// Every kind of citation the engine produces. Raw values are the names of the fields
    /// that hold them: `TypeTable.Citations`'s fields, `TypeTable`'s, `CapPlan`'s; the last
    /// two are built outside the tables (`Engine.prompt`, `Engine.flush`).
    enum Kind: String, CaseIterable, Sendable {
        case missingData, eligible, pausedAll, categoryRequires, categoryToggle, typeToggle, channels, fallback
        case dedupe, key, quietHours, expires, past, batching, provisional
        case timingCitation, suppressCitations
        case capCitation = "CapPlan.citation"
        case promptRule = "prompt"
        case flush
    }

    /// One rule id and where it is written, as a decision or a trace step carries them, and
    /// the type decided.
    struct Cited: Sendable {
        var id: String
        var source: String
        var type: String?
    }

    /// A decision that carries a citation of `kind`: `rule` cited at `key`.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var name: String
        var rule: String
        var key: String
        var cite: @Sendable () throws -> [Cited]

        var testDescription: String { "\(kind.rawValue): \(name)" }
    }

    // MARK: Which kinds exist

    /// The citations a type's table holds, labelled by the field that holds them. A field
    /// whose type mentions `Citation` but is not read here is labelled by its type, so it
    /// shows up as an unknown kind.
    static func tableCitations(_ table: TypeTable) -> [(kind: String, citation: Citation)] {
        var found: [(kind: String, citation: Citation)] = []
        // Tables hold their citations as indices (`TableCitation`) into their own
        // `CitationTable`; each field is resolved through the table that owns it.
        let owned = table.citations
        for child in Mirror(reflecting: table).children {
            let label = child.label ?? "?"
            if let cite = child.value as? TypeTable.Citations {
                for field in Mirror(reflecting: cite).children {
                    if let cited = field.value as? TableCitation { found.append((field.label ?? "?", owned[cited])) }
                }
            } else if let cited = child.value as? TableCitation {
                found.append((label, owned[cited]))
            } else if let citations = child.value as? [TableCitation] {
                found += citations.map { (label, owned[$0]) }
            } else if let plans = child.value as? [CapPlan] {
                for plan in plans {
                    for field in Mirror(reflecting: plan).children {
                        if let cited = field.value as? TableCitation { found.append(("CapPlan.\(field.label ?? "?")", owned[cited])) }
                    }
                }
            } else if child.value is CitationTable {
                continue  // the storage the fields above index into
            } else if String(describing: type(of: child.value)).contains("Citation") {
                found.append(("\(label): \(type(of: child.value))", Citation(id: nil, source: nil)))
            }
        }
        return found
    }

    /// Every shipped policy and every engine fixture.
    static let bundles: [String] = {
        let policies = (try? FileManager.default.contentsOfDirectory(atPath: S.path("policies"))) ?? []
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: S.path("Tests/Fixtures/engine"))) ?? []
        return policies.sorted().map { "policies/\($0)" } + fixtures.sorted()
    }()

    @Test func everyCitationFieldIsAKind() throws {
        #expect(Self.bundles.count >= 9)
        var kinds: Set<String> = []
        for name in Self.bundles {
            let engine = S.engine(name)
            for type in engine.bundle.types {
                kinds.formUnion(Self.tableCitations(try #require(engine.tables[type.id])).map(\.kind))
            }
        }
        let known = Set(Kind.allCases.map(\.rawValue))
        #expect(kinds.subtracting(known).isEmpty, "citation kinds without a case in `Kind` (and a scenario): \(kinds.subtracting(known).sorted())")
        #expect(known.subtracting(kinds) == [Kind.promptRule.rawValue, Kind.flush.rawValue],
                "`Kind` lists fields the engine's tables no longer have")
    }

    @Test func everyKindHasAScenario() {
        let covered = Set(Self.scenarios.map(\.kind))
        #expect(covered == Set(Kind.allCases), "kinds without a scenario: \(Kind.allCases.filter { !covered.contains($0) })")
    }

    // MARK: What a citation points at

    /// What stands at a cited `path:line:col`.
    struct Token: Equatable {
        /// The name there (a key, an id), without the quotes around it.
        var text: String
        /// A mapping key (a `:` follows).
        var isKey: Bool
        /// The value of an `id` key.
        var isID: Bool
    }

    static func token(at source: String) throws -> Token {
        let parts = source.split(separator: ":", omittingEmptySubsequences: false)
        let line = try #require(parts.count >= 3 ? Int(parts[parts.count - 2]) : nil, "no line in `\(source)`")
        let column = try #require(Int(parts[parts.count - 1]), "no column in `\(source)`")
        let path = parts.dropLast(2).joined(separator: ":")
        let text = try String(contentsOfFile: path.hasPrefix("/") ? path : S.path(path), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(line >= 1 && line <= lines.count, "`\(source)`: no such line")
        let scalars = Array(lines[line - 1].unicodeScalars)
        try #require(column >= 1 && column <= scalars.count, "`\(source)`: no such column")
        var rest = scalars[(column - 1)...]
        let quote = rest.first.flatMap { $0 == "\"" || $0 == "'" ? $0 : nil }
        if quote != nil { rest = rest.dropFirst() }
        let name = rest.prefix { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
        var after = rest.dropFirst(name.count)
        if let quote, after.first == quote { after = after.dropFirst() }
        let before = String(String.UnicodeScalarView(scalars[..<(column - 1)])).trimmingCharacters(in: .whitespaces)
        return Token(text: String(String.UnicodeScalarView(name)), isKey: after.first == ":", isID: before.hasSuffix("id:"))
    }

    /// Whether `token` is a key that can decide for the rule `id` (deciding type `type`): the
    /// id's last part (`eligible`, `pausedAll`, `tips`, a cap's id), a toggle's `default`,
    /// `idempotencyKey`, the type's name when nothing more specific is written, or any first
    /// key of an entry without an id (`caps[0]`).
    static func fits(_ token: Token, id: String, type: String?) -> Bool {
        guard token.isKey || token.isID else { return false }
        let t = token.text
        if t == id || id.hasSuffix("." + t) { return true }
        if t == "default", id.hasPrefix("prefs.") { return true }
        if t == "idempotencyKey", id.hasSuffix(".key") { return true }
        if let type, t == type, id.hasPrefix(type + ".") || id == "prefs.pausedAll" || id == "quietHours" { return true }
        return token.isKey && id.hasSuffix("]")
    }

    // MARK: Every kind, decided

    @Test(arguments: scenarios) func citesTheKeyThatDecided(_ scenario: Scenario) throws {
        let cited = try scenario.cite()
        let hit = try #require(cited.first { $0.id == scenario.rule },
                               "`\(scenario.rule)` is not cited; cited: \(cited.map(\.id))")
        let token = try Self.token(at: hit.source)
        #expect(token.text == scenario.key, "\(hit.source) holds `\(token.text)`, not `\(scenario.key)`")
        #expect(token.isKey || token.isID, "\(hit.source): `\(token.text)` is neither a key nor an id")
        // Every other citation the same decision carries points at a key too.
        for other in cited {
            let token = try Self.token(at: other.source)
            #expect(Self.fits(token, id: other.id, type: other.type),
                    "`\(other.id)` is cited at \(other.source), which holds `\(token.text)`")
        }
    }

    /// Every citation every table of every bundle holds, decided or not, points at a key
    /// that fits its rule id; so do prompt rules, batch groups and digests.
    @Test(arguments: bundles) func everyTableCitesKeys(_ name: String) throws {
        let engine = S.engine(name)
        var checked = 0
        for type in engine.bundle.types {
            for (kind, citation) in Self.tableCitations(try #require(engine.tables[type.id])) {
                guard let source = citation.source else { continue }
                let token = try Self.token(at: source)
                #expect(Self.fits(token, id: citation.id ?? "", type: type.id),
                        "\(type.id) \(kind) `\(citation.id ?? "")` is cited at \(source), which holds `\(token.text)`")
                checked += 1
            }
        }
        for rule in engine.bundle.prompt.wait {
            let token = try Self.token(at: rule.span.citation)
            #expect(Self.fits(token, id: rule.id, type: nil), "prompt rule `\(rule.id)` is cited at `\(token.text)`")
        }
        for group in engine.bundle.batching { #expect(try Self.token(at: group.span.citation) == Token(text: group.name, isKey: true, isID: false)) }
        for digest in engine.bundle.digests { #expect(try Self.token(at: digest.span.citation) == Token(text: digest.name, isKey: true, isID: false)) }
        #expect(checked >= engine.bundle.types.count * 3)
    }

    // MARK: Scenarios

    static func decided(_ request: DecisionRequest, _ bundle: String = "basic") -> [Cited] {
        citations(of: S.decide(request, engine: S.engine(bundle)))
    }

    static func citations(of decision: Decision) -> [Cited] {
        var cited = decision.rule.map { [Cited(id: $0.id, source: $0.source, type: decision.type)] } ?? []
        for step in decision.trace {
            if let id = step.rule, let source = step.source { cited.append(Cited(id: id, source: source, type: decision.type)) }
        }
        return cited
    }

    /// A request to the citations fixture (its own user and state schema).
    static func cite(_ type: String, at: String = S.t0, prefs: JSON? = nil, state: JSON = ["streak": 3],
                     params: JSON = [:], history: [JSON] = []) -> [Cited] {
        decided(S.request(type, at: at, user: ["id": "u1", "account": true], prefs: prefs, state: state,
                          params: params, history: history), "citations")
    }

    /// docs/examples/<name>.json, with top-level members replaced (`prefs`, `history`).
    static func handz(_ name: String, _ changes: [String: (JSON) -> JSON] = [:]) throws -> [Cited] {
        let text = try String(contentsOfFile: S.path("docs/examples/\(name).json"), encoding: .utf8)
        var members = try #require(try JSON.parse(text).members)
        for (key, change) in changes {
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = change(members[index].value)
            } else {
                members.append(.init(key, change(.null)))
            }
        }
        return decided(try DecisionRequest(json: .object(members)), "policies/handz")
    }

    static func adding(_ key: String, _ value: JSON) -> (JSON) -> JSON {
        { json in .object((json.members ?? []).filter { $0.key != key } + [.init(key, value)]) }
    }

    static func prompted(_ json: JSON, _ bundle: String) throws -> [Cited] {
        let request = try PromptRequest(json: json)
        let decision = try S.engine(bundle).prompt(request, now: request.now).get()
        var cited = decision.rule.map { [Cited(id: $0.id, source: $0.source)] } ?? []
        for step in decision.trace { if let id = step.rule, let source = step.source { cited.append(Cited(id: id, source: source)) } }
        return cited
    }

    static func flushed(_ members: [DecisionRequest]) throws -> [Cited] {
        let engine = S.engine()
        let decisions = members.map { S.decide($0) }
        let key = try #require(decisions.first?.batch?.key)
        return citations(of: try #require(engine.flush(key, members: decisions)))
    }

    static let night = "2026-03-10T23:00:00Z"
    static let basicParams: JSON = ["count": 2]

    static let scenarios: [Scenario] = [
        Scenario(kind: .missingData, name: "a param is absent", rule: "daily", key: "daily") {
            decided(S.request("daily", params: [:]))
        },
        Scenario(kind: .eligible, name: "flow mapping", rule: "daily.eligible", key: "eligible") {
            decided(S.request("daily", user: ["id": "u1", "account": false, "premium": false], params: basicParams))
        },
        Scenario(kind: .eligible, name: "handz example", rule: "N-MAINT-DUE-TODAY.eligible", key: "eligible") {
            try handz("due-today")
        },
        Scenario(kind: .pausedAll, name: "handz defaults", rule: "prefs.pausedAll", key: "pausedAll") {
            try handz("due-today", ["prefs": adding("pausedAll", true)])
        },
        Scenario(kind: .pausedAll, name: "last key of block defaults", rule: "prefs.pausedAll", key: "pausedAll") {
            cite("alert", prefs: ["pausedAll": true], params: ["id": "a"])
        },
        Scenario(kind: .categoryRequires, name: "flow mapping", rule: "premium.requires", key: "requires") {
            decided(S.request("offer"))
        },
        Scenario(kind: .categoryToggle, name: "the user's toggle", rule: "prefs.categories.news", key: "news") {
            decided(S.request("morning", prefs: ["categories": ["news": false]]))
        },
        Scenario(kind: .categoryToggle, name: "off by default", rule: "prefs.categories.tips", key: "default") {
            cite("tip")
        },
        Scenario(kind: .typeToggle, name: "off by default", rule: "prefs.types.nudge", key: "default") {
            decided(S.request("nudge"))
        },
        Scenario(kind: .typeToggle, name: "the user's toggle", rule: "prefs.types.daily", key: "daily") {
            decided(S.request("daily", prefs: ["types": ["daily": false]], params: basicParams))
        },
        Scenario(kind: .channels, name: "channel off", rule: "sms-offer.channels", key: "channels") {
            decided(S.request("sms-offer", prefs: ["channels": ["sms": false]]))
        },
        Scenario(kind: .channels, name: "system denied", rule: "morning.channels", key: "channels") {
            decided(S.request("morning", permission: "denied"))
        },
        Scenario(kind: .fallback, name: "basic", rule: "daily.fallback", key: "fallback") {
            decided(S.request("daily", permission: "denied", params: basicParams))
        },
        Scenario(kind: .fallback, name: "handz example", rule: "N-INBOX-NEW-IMPORT.fallback", key: "fallback") {
            try handz("denied-fallback")
        },
        Scenario(kind: .dedupe, name: "flow mapping", rule: "news-item.dedupe", key: "dedupe") {
            decided(S.request("news-item", params: ["id": "a"],
                              history: [S.entry("news-item", key: "news:a", at: "2026-03-10T11:30:00Z")]))
        },
        Scenario(kind: .dedupe, name: "block mapping", rule: "alert.dedupe", key: "dedupe") {
            cite("alert", params: ["id": "a"], history: [S.entry("alert", key: "alert:a", at: "2026-03-10T11:30:00Z")])
        },
        Scenario(kind: .key, name: "the built-in key", rule: "daily.key", key: "daily") {
            decided(S.request("daily", params: basicParams,
                              history: [S.entry("daily", key: "daily:u1:2026-03-10", at: "2026-03-10T09:00:00Z")]))
        },
        Scenario(kind: .key, name: "idempotencyKey", rule: "N-INBOX-NEW-IMPORT.key", key: "idempotencyKey") {
            try handz("quiet-hours", ["history": { _ in
                [S.entry("N-INBOX-NEW-IMPORT", key: "N-INBOX-NEW-IMPORT:imp-7Qx2", at: "2026-03-09T10:00:00Z")]
            }])
        },
        Scenario(kind: .key, name: "dedupe key without window", rule: "news.key", key: "key") {
            cite("news", params: ["id": "a"], history: [S.entry("news", key: "news:a", at: "2026-03-01T10:00:00Z")])
        },
        Scenario(kind: .quietHours, name: "handz defaults (issue 15)", rule: "quietHours", key: "quietHours") {
            try handz("quiet-hours")
        },
        Scenario(kind: .quietHours, name: "the policy section", rule: "quietHours", key: "quietHours") {
            decided(S.request("cooled", at: night))
        },
        Scenario(kind: .quietHours, name: "block defaults", rule: "quietHours", key: "quietHours") {
            cite("news", at: night, params: ["id": "a"])
        },
        Scenario(kind: .quietHours, name: "the type's own, flow", rule: "quiet-strict.timing.quietHours", key: "quietHours") {
            decided(S.request("quiet-strict", at: night))
        },
        Scenario(kind: .quietHours, name: "the type's own, block", rule: "alert.timing.quietHours", key: "quietHours") {
            cite("alert", at: night, params: ["id": "a"])
        },
        Scenario(kind: .expires, name: "flow timing", rule: "session.timing.expires", key: "expires") {
            decided(S.request("session", params: ["at": "2026-03-10T23:00:00Z"]))
        },
        Scenario(kind: .expires, name: "block timing, last key", rule: "session.timing.expires", key: "expires") {
            cite("session", params: ["at": "2026-03-10T09:00:00Z"])
        },
        Scenario(kind: .past, name: "past: skip, flow timing", rule: "session.timing.past", key: "past") {
            decided(S.request("session", at: "2026-03-10T09:00:00Z", now: "2026-03-10T22:00:00Z", user: ["id": "u1"], state: [:],
                              params: ["startsAt": "2026-03-10T21:30:00Z"]), "judged")
        },
        Scenario(kind: .provisional, name: "the policy key", rule: "provisional", key: "provisional") {
            decided(S.request("message", user: ["id": "u1"], permission: "provisional", state: ["unread": 4]), "quiet")
        },
        Scenario(kind: .quietHours, name: "during: passive", rule: "quietHours", key: "quietHours") {
            decided(S.request("message", at: "2026-03-10T23:30:00Z", user: ["id": "u1"],
                              prefs: ["timezone": "UTC", "quietHours": ["start": "23:00", "end": "07:00"]], state: ["unread": 4]), "quiet")
        },
        Scenario(kind: .batching, name: "joins a member", rule: "batching.tips", key: "tips") {
            decided(S.request("tip2", history: [S.entry("tip", at: "2026-03-10T11:55:00Z", status: "scheduled")]))
        },
        Scenario(kind: .timingCitation, name: "reminder time", rule: "daily.timing", key: "timing") {
            decided(S.request("daily", params: basicParams))
        },
        Scenario(kind: .timingCitation, name: "training day", rule: "weekly.timing", key: "timing") {
            decided(S.request("weekly", prefs: ["trainingDays": ["fri"]]))
        },
        Scenario(kind: .timingCitation, name: "training day, block timing", rule: "weekly.timing", key: "timing") {
            cite("weekly", prefs: ["trainingDays": ["fri"]])
        },
        Scenario(kind: .timingCitation, name: "no timing: the type", rule: "cooled.timing", key: "cooled") {
            decided(S.request("cooled"))
        },
        Scenario(kind: .timingCitation, name: "handz example", rule: "N-MAINT-DUE-TODAY.timing", key: "timing") {
            try handz("due-today")
        },
        Scenario(kind: .suppressCitations, name: "a type's rule", rule: "no-streak", key: "no-streak") {
            decided(S.request("daily", state: ["streak": 0, "unread": 0], params: basicParams))
        },
        Scenario(kind: .suppressCitations, name: "a policy rule", rule: "muted-item", key: "muted-item") {
            decided(S.request("news-item", prefs: ["muted": ["a"]], params: ["id": "a"]))
        },
        Scenario(kind: .suppressCitations, name: "no id: the first key", rule: "alert.suppress[0]", key: "reason") {
            cite("alert", state: ["streak": 0], params: ["id": "a"])
        },
        Scenario(kind: .capCitation, name: "a type's cap", rule: "daily-once", key: "daily-once") {
            decided(S.request("daily", params: basicParams, history: [S.entry("daily", at: "2026-03-10T09:00:00Z")]))
        },
        Scenario(kind: .capCitation, name: "handz burst", rule: "global-burst", key: "global-burst") {
            try handz("inbox-burst")
        },
        Scenario(kind: .capCitation, name: "id not the first key", rule: "alert-daily", key: "alert-daily") {
            cite("alert", params: ["id": "b"], history: [S.entry("alert", key: "alert:a", at: "2026-03-10T09:00:00Z")])
        },
        Scenario(kind: .capCitation, name: "no id, flow", rule: "caps[0]", key: "scope") {
            cite("news", params: ["id": "z"], history: (0 ..< 5).map { S.entry("alert", key: "k\($0)", at: "2026-03-10T11:59:30Z") })
        },
        Scenario(kind: .capCitation, name: "no id, block", rule: "caps[1]", key: "per") {
            cite("news", params: ["id": "z"], history: (0 ..< 10).map { S.entry("alert", key: "k\($0)", at: "2026-03-10T0\($0):00:00Z") })
        },
        Scenario(kind: .promptRule, name: "with an id", rule: "guest", key: "guest") {
            try prompted(["now": .string(S.t0), "user": ["id": "u1", "account": false], "state": ["savedFlows": 1, "midFlow": false],
                          "permission": "unknown"], "prompt")
        },
        Scenario(kind: .promptRule, name: "no id: the first key", rule: "prompt.wait[0]", key: "when") {
            try prompted(["now": .string(S.t0), "user": ["id": "u1", "account": false], "state": ["streak": 1],
                          "permission": "unknown"], "citations")
        },
        Scenario(kind: .flush, name: "a batch group", rule: "batching.tips", key: "tips") {
            try flushed([S.request("tip2", history: [S.entry("tip", at: "2026-03-10T11:55:00Z", status: "scheduled")]),
                         S.request("tip", history: [S.entry("tip2", at: "2026-03-10T11:55:00Z", status: "scheduled")])])
        },
        Scenario(kind: .flush, name: "a digest", rule: "batching.evening", key: "evening") {
            let member = S.request("digest-me", history: [S.entry("digest-me", at: "2026-03-10T09:00:00Z")])
            return try flushed([member, member])
        },
    ]
}
