public import HeraldSyntax

/// Writes the JSON Schema (draft 2020-12) of Herald bundle files, for editors (YAML language
/// servers) and CI: one schema every `.yaml` file of a catalog or policy directory validates
/// against, whichever sections it holds.
///
/// The schema mirrors `docs/language.md` and the compiler's key table (`LanguageKeys`): every
/// fixed place of `LanguageKeys.places` is a `$defs` entry of the same name (tests compare their
/// keys), and every section and key has a description, enums,
/// `additionalProperties: false` where Herald rejects unknown keys (`H0201`), and patterns for
/// durations, times of day and identifiers. It checks shape only: references between names,
/// expression types and templates are the compiler's job (`herald validate`).
public enum JSONSchemaGenerator {
    /// The draft the schema is written in.
    public static let draft = "https://json-schema.org/draft/2020-12/schema"

    /// The schema as a JSON value, keys in a stable order.
    public static func schema() -> JSONOutput {
        object([
            ("$schema", .string(draft)),
            ("$id", .string("https://herald.invalid/schema/bundle.json")),
            ("title", .string("Herald bundle file")),
            ("description", .string("A catalog or policy file of a Herald bundle (docs/language.md). Files of one directory are merged by top-level section; every section is optional in a single file.")),
            ("type", .string("object")),
            ("properties", object(catalogSections + policySections)),
            ("additionalProperties", .bool(false)),
            ("$defs", object(definitions + catalogPlaces + policyPlaces + scenarioDefinitions)),
        ])
    }

    /// The schema as pretty-printed JSON text, ending with a newline.
    public static func schemaText() -> String {
        schema().serialized(pretty: true) + "\n"
    }

    // MARK: - Building blocks

    static func object(_ members: [(String, JSONOutput)]) -> JSONOutput { .object(members) }

    static func ref(_ name: String) -> JSONOutput { object([("$ref", .string("#/$defs/\(name)"))]) }

    static func ref(_ name: String, _ description: String) -> JSONOutput {
        object([("$ref", .string("#/$defs/\(name)")), ("description", .string(description))])
    }

    static func string(_ description: String? = nil, pattern: String? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("type", .string("string"))]
        if let pattern { members.append(("pattern", .string(pattern))) }
        if let description { members.append(("description", .string(description))) }
        return object(members)
    }

    static func boolean(_ description: String) -> JSONOutput {
        object([("type", .string("boolean")), ("description", .string(description))])
    }

    static func integer(_ description: String, minimum: Int? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("type", .string("integer"))]
        if let minimum { members.append(("minimum", .int(minimum))) }
        members.append(("description", .string(description)))
        return object(members)
    }

    static func enumeration(_ values: [String], _ description: String? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("type", .string("string")), ("enum", .array(values.map(JSONOutput.string)))]
        if let description { members.append(("description", .string(description))) }
        return object(members)
    }

    static func list(_ items: JSONOutput, _ description: String, minItems: Int? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("type", .string("array")), ("items", items)]
        if let minItems { members.append(("minItems", .int(minItems))) }
        members.append(("description", .string(description)))
        return object(members)
    }

    /// A mapping from names (`identifier`s, or the definition `names` names) to `value`.
    static func map(_ value: JSONOutput, _ description: String, names: String = "identifier") -> JSONOutput {
        object([
            ("type", .string("object")),
            ("description", .string(description)),
            ("propertyNames", ref(names)),
            ("additionalProperties", value),
        ])
    }

    /// A closed mapping: only `properties`, with `required` ones.
    static func record(
        _ properties: [(String, JSONOutput)],
        required: [String] = [],
        description: String? = nil,
        extra: [(String, JSONOutput)] = []
    ) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("type", .string("object"))]
        if let description { members.append(("description", .string(description))) }
        members.append(("properties", object(properties)))
        if !required.isEmpty { members.append(("required", .array(required.map(JSONOutput.string)))) }
        members.append(("additionalProperties", .bool(false)))
        members.append(contentsOf: extra)
        return object(members)
    }

    static func anyOf(_ schemas: [JSONOutput], _ description: String? = nil) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("anyOf", .array(schemas))]
        if let description { members.append(("description", .string(description))) }
        return object(members)
    }

    // MARK: - Patterns

    static let identifierPattern = "^[A-Za-z0-9_.-]+$"
    static let durationPattern = "^([0-9]+[smhdw])+$"
    static let signedDurationPattern = "^-?([0-9]+[smhdw])+$"
    static let timeOfDayPattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$"
    /// Field and param names: expressions read them as `state.<name>`, `params.<name>`.
    static let fieldNamePattern = "^[A-Za-z_][A-Za-z0-9_]*$"
    static let weekdays = LanguageKeys.weekdays
    static let interruptionLevels = ["passive", "active", "timeSensitive", "critical"]
    /// `bool`, `int`, …, `enum(a, b)`, `list<T>`, each optionally followed by `?`.
    static let valueTypePattern =
        #"^\s*(bool|int|string|duration|instant|time|date|weekday|enum\(\s*[A-Za-z0-9_.-]+(\s*,\s*[A-Za-z0-9_.-]+)*\s*\)|list<.+>)\s*\??\s*$"#
    /// `map<T>` (state and user fields only): T a plain value type, not optional.
    static let mapTypePattern =
        #"^\s*map<\s*(bool|int|string|duration|instant|time|date|weekday|enum\(\s*[A-Za-z0-9_.-]+(\s*,\s*[A-Za-z0-9_.-]+)*\s*\))\s*>\s*$"#
    static let timingAtPattern =
        #"^(immediate|reminder_time|local\(\s*["']?([01][0-9]|2[0-3]):[0-5][0-9]["']?\s*\)|local\(\s*state\(\s*[A-Za-z0-9_.-]+\s*\)\s*(\?\?\s*["']?([01][0-9]|2[0-3]):[0-5][0-9]["']?\s*)?\)|param\(\s*[A-Za-z0-9_.-]+\s*\)|state\(\s*[A-Za-z0-9_.-]+\s*\))$"#
    static let overPattern = #"^(suppress|defer|batch\(\s*[A-Za-z0-9_.-]+\s*\)|digest\(\s*[A-Za-z0-9_.-]+\s*\))$"#
}
