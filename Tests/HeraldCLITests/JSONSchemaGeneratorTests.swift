import Foundation
import HeraldPolicy
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

    @Test func isStable() {
        #expect(JSONSchemaGenerator.schemaText() == JSONSchemaGenerator.schemaText())
    }
}
