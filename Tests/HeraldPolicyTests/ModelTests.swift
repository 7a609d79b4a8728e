import Foundation
import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// The model's own behaviour: tables, lookups, spans, sendability.
@Suite struct ModelTests {
    @Test func namedTableKeepsDeclarationOrderAndFirstValue() {
        var table = NamedTable<Int>()
        table.insert(2, named: "b")
        table.insert(1, named: "a")
        table.insert(3, named: "b")
        #expect(table.names == ["b", "a"])
        #expect(table["b"] == 2 && table["c"] == nil)
        #expect(table.values == [2, 1] && Array(table) == [2, 1])
        #expect(table.count == 2 && table.contains("a") && !table.isEmpty)
    }

    @Test func builtInReasonsAreTheClosedSet() {
        #expect(Reason.builtIn.map(\.code) == [
            "missing_data", "ineligible", "paused_all", "channel_off", "category_off", "type_off", "system_denied",
            "duplicate", "expired", "missed", "rate_limited", "cooldown", "quiet_hours", "muted", "batched",
        ])
        #expect(Reason.builtIn.allSatisfy { $0.isBuiltIn && $0.span == nil && $0.description != nil })
        #expect(Reason.scheduleReasons == ["on_time", "reminder_time", "local_time", "quiet_hours", "quiet_hours_passive", "training_day", "burst_spacing"])
    }

    @Test func everyModelItemKeepsItsSpan() throws {
        let result = CompilerTestSupport.validateMinimal(plus: "caps:\n  - { max: 1, per: day }\nsuppress:\n  - { when: \"true\", reason: muted }\n")
        let b = try #require(result.bundle)
        let t = try #require(b.types["daily-reminder"])
        #expect(t.span.start.line == 12 && t.span.start.column == 3)
        #expect(b.caps[0].span.start.line == 18)
        #expect(b.suppress[0].span.start.line == 20)
        #expect(b.channels["push"]?.span.start.line == 3)
        #expect(b.categories["reminders"]?.span.start.line == 5)
        #expect(b.routes["home"]?.span.start.line == 10)
        #expect(t.copy?.span.start.line == 15 && t.link?.span.start.line == 16)
        #expect(b.schemaFields.first { $0.path == ["state", "streak"] }?.span.start.line == 7)
    }

    @Test func priorityRankFallsBackToTheCategory() throws {
        let result = CompilerTestSupport.validateMinimal(plus: "priorities: [reminders]\n")
        let b = try #require(result.bundle)
        #expect(b.priorityRank(ofType: "daily-reminder") == 0)
        #expect(b.priorityRank(ofType: "nope") == nil)
    }

    @Test func bundleIsSendableAcrossTasks() async throws {
        let b = try #require(CompilerTestSupport.validateMinimal().bundle)
        let count = await Task.detached { b.types.count }.value
        #expect(count == 1)
    }

    @Test func paramTypesAndLookup() throws {
        let text = CompilerTestSupport.minimalBundle + "    params: { num: int, at: instant? }\n"
        let b = try #require(CompilerTestSupport.validate(text).bundle)
        let t = try #require(b.types["daily-reminder"])
        #expect(t.paramTypes == ["num": .int, "at": .optional(.instant)])
        #expect(t.param("num")?.type == .int && t.param("x") == nil)
    }

    @Test func keyTablesCoverEverySection() {
        #expect(Set(LanguageKeys.topLevel.keys) == Set(LanguageKeys.catalogSections + LanguageKeys.policySections))
        #expect(LanguageKeys.namedSections.isSubset(of: Set(LanguageKeys.topLevel.keys)))
        #expect(LanguageKeys.listSections.isSubset(of: Set(LanguageKeys.topLevel.keys)))
        for (_, place) in LanguageKeys.places {
            #expect(Set(place.required).isSubset(of: Set(place.keys)))
            #expect(Set(place.keys).count == place.keys.count)
        }
    }
}

/// docs/language.md and docs/diagnostics/*.md follow the compiler's tables.
@Suite struct CompilerDocsTests {
    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: CompilerTestSupport.repoRoot + "/" + path, encoding: .utf8)) ?? ""
    }

    @Test func languageDocNamesEveryKey() {
        let doc = Self.read("docs/language.md")
        for (name, place) in LanguageKeys.places {
            for key in place.keys {
                #expect(doc.contains("`\(key)`") || doc.contains("\(key):"), "docs/language.md does not mention `\(key)` (\(name))")
            }
        }
        for reason in Reason.builtIn.map(\.code) + Reason.scheduleReasons {
            #expect(doc.contains("`\(reason)`"), "built-in reason \(reason)")
        }
    }

    @Test func everyOwnedCodeIsDocumented() {
        let docs = ["bundle", "structure", "reference", "channels", "render", "preferences", "data"].map { Self.read("docs/diagnostics/\($0).md") }.joined()
        for code in DiagnosticCode.all where code.id.hasPrefix("H00") || code.id.hasPrefix("H02") || code.id.hasPrefix("H040") || code.id.hasPrefix("H041") {
            #expect(docs.contains("### \(code.id) \(code.name)\n"), "no docs for \(code.id)")
        }
    }
}
