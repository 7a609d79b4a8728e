import Foundation
@testable import HeraldPolicy
import Testing

@Suite struct JSONSchemaGeneratorTests {
    static func schema() throws -> [String: Any] {
        let text = JSONSchemaGenerator.schemaText()
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func isJSONInDraft202012() throws {
        let schema = try Self.schema()
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["type"] as? String == "object")
        #expect(schema["additionalProperties"] as? Bool == false)
        #expect(schema["required"] == nil, "every top-level section is optional in one file")
    }

    /// Every section heading of docs/language.md (`### \`app\``, `### \`state\` and \`user\``)
    /// is a top-level property.
    @Test func coversEverySectionOfTheLanguage() throws {
        let properties = try #require(try Self.schema()["properties"] as? [String: Any])
        let language = try String(contentsOfFile: TestSupport.path("docs/language.md"), encoding: .utf8)
        var sections: [String] = []
        var inSections = false
        for line in language.split(separator: "\n") {
            // Only the "Catalog sections" and "Policy sections" chapters name YAML sections.
            if line.hasPrefix("## ") { inSections = line.hasSuffix("sections") }
            guard inSections, line.hasPrefix("### ") else { continue }
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            sections += stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
        }
        #expect(sections.count >= 20)
        for section in sections {
            #expect(properties[section] != nil, "no schema for section `\(section)`")
        }
    }

    @Test func everyReferenceResolves() throws {
        let text = JSONSchemaGenerator.schemaText()
        let defs = try #require(try Self.schema()["$defs"] as? [String: Any])
        var rest = Substring(text)
        while let range = rest.range(of: "\"#/$defs/") {
            rest = rest[range.upperBound...]
            let name = rest.prefix { $0 != "\"" }
            #expect(defs[String(name)] != nil, "dangling $ref #/$defs/\(name)")
        }
    }

    /// Every fixed place of the compiler's key table is a `$defs` entry of the same name (the
    /// top level is the schema itself) with exactly its keys, its required keys, a description
    /// for every key, and no other keys (except `link`, whose other keys bind route params).
    @Test(arguments: LanguageKeys.places.keys.sorted())
    func placeMatchesTheCompilersKeys(_ name: String) throws {
        let place = try #require(LanguageKeys.places[name])
        let schema = try Self.schema()
        let defs = try #require(schema["$defs"] as? [String: Any])
        let node = try #require(name == "top-level" ? schema : defs[name] as? [String: Any], "no $defs/\(name)")
        let properties = try #require(node["properties"] as? [String: Any], "$defs/\(name) has no properties")
        #expect(Set(properties.keys) == Set(place.keys), "\(name): schema keys differ from LanguageKeys.\(name)")
        let required = node["required"] as? [String] ?? []
        #expect(Set(required) == Set(place.required), "\(name): schema requires \(required.sorted()), the compiler \(place.required.sorted())")
        if name == "link" {
            #expect(node["additionalProperties"] is [String: Any])
        } else {
            #expect(node["additionalProperties"] as? Bool == false, "\(name): unknown keys must be rejected (H0201)")
        }
        if name != "top-level" {
            for (key, value) in properties {
                #expect((value as? [String: Any])?["description"] is String, "\(name).\(key) has no description")
            }
        }
    }

    /// The closed word sets of the compiler appear in the schema's enums and patterns.
    @Test func closedWordsMatchTheCompiler() throws {
        let defs = try #require(try Self.schema()["$defs"] as? [String: Any])
        let weekday = try #require(defs["weekday"] as? [String: Any])
        #expect(weekday["enum"] as? [String] == LanguageKeys.weekdays)
        let text = JSONSchemaGenerator.schemaText()
        for window in LanguageKeys.capWindows {
            #expect(text.contains("\"\(window)\""), "cap window `\(window)` missing")
        }
        for anchor in LanguageKeys.timingAnchors {
            #expect(JSONSchemaGenerator.timingAtPattern.contains(anchor), "timing anchor `\(anchor)` missing")
        }
        for overflow in LanguageKeys.overflows {
            #expect(JSONSchemaGenerator.overPattern.contains(overflow), "`over: \(overflow)` missing")
        }
        for type in LanguageKeys.schemaTypes {
            // `map<T>` is a state and user field type only: its own pattern (`stateValueType`).
            let pattern = type == "map" ? JSONSchemaGenerator.mapTypePattern : JSONSchemaGenerator.valueTypePattern
            #expect(pattern.contains(type), "schema type `\(type)` missing")
        }
    }

    @Test func isStable() {
        #expect(JSONSchemaGenerator.schemaText() == JSONSchemaGenerator.schemaText())
    }
}
