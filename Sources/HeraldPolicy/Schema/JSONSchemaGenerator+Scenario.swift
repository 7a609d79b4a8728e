import HeraldSyntax

extension JSONSchemaGenerator {
    /// `$defs` of simulation scenario files (`policies/<app>/scenarios/*.yaml`, docs/simulate.md):
    /// `scenario` is the file; a scenario validates against `{"$ref": "#/$defs/scenario"}` with the
    /// other `$defs` of this schema. The shape only: types, zones and request fields are checked
    /// by `herald simulate` against the policy (H0801–H0813).
    static var scenarioDefinitions: [(String, JSONOutput)] {
        let probability = object([("type", .string("number")), ("minimum", .int(0)), ("maximum", .int(1))])
        let delay = anyOf([ref("duration"), list(ref("duration"), "`[shortest, longest]`", minItems: 2)],
                          "Seconds after the delivery: one duration or `[shortest, longest]` (uniform).")
        let reaction = record([("probability", probability), ("delay", delay)], description: "A reaction to a delivered notification.")
        let reactions = record([("open", reaction), ("dismiss", reaction)], description: "Open, else dismiss, else nothing.")
        let values = object([("type", .string("object")), ("additionalProperties", ref("scenarioValue")),
                             ("description", .string("Fields, each a scenario value."))])
        return [
            ("scenarioValue", anyOf([
                record([("pick", list(anyOf([
                    object([("type", .string("object")), ("minProperties", .int(1)), ("maxProperties", .int(1)),
                            ("additionalProperties", object([("type", .string("number")), ("exclusiveMinimum", .int(0))]))]),
                    object([("type", .string("array")), ("minItems", .int(2)), ("maxItems", .int(2))]),
                ]), "`text: weight` or `[value, weight]` entries; weights below a total of 1 leave the field unset.", minItems: 1))],
                       required: ["pick"]),
                record([("unique", string("The prefix of a fresh id per draw."))], required: ["unique"]),
                record([("range", list(object([("type", .string("integer"))]), "`[lowest, highest]`", minItems: 2))], required: ["range"]),
                record([("instant", string("The trigger instant plus an offset (`+2h`).", pattern: "^[+-]?[0-9]+[smhd]$"))], required: ["instant"]),
                object([("type", .array([.string("string"), .string("number"), .string("boolean"), .string("null")]))]),
                object([("type", .string("array")), ("items", ref("scenarioValue"))]),
                object([("type", .string("object")), ("additionalProperties", ref("scenarioValue"))]),
            ], "A literal, or a generated value: `pick`, `unique`, `range`, `instant` (docs/simulate.md).")),
            ("scenarioTrigger", record([
                ("type", ref("identifier", "The notification type.")),
                ("at", anyOf([ref("timeOfDay"), list(ref("timeOfDay"), "Local times.")], "Every day at these local times.")),
                ("perDay", object([("type", .string("number")), ("minimum", .int(0)), ("maximum", .int(1000)),
                                   ("description", .string("Poisson mean of triggers per local day."))])),
                ("between", list(ref("timeOfDay"), "`[from, to]` for `perDay`.", minItems: 2)),
                ("times", list(string("An RFC 3339 date-time with an offset."), "Explicit instants.")),
                ("probability", probability),
                ("weekdays", list(ref("weekday"), "The days it fires on.")),
                ("params", values),
                ("subject", ref("scenarioValue")),
            ], required: ["type"], description: "A kind of trigger and when it fires (exactly one of `at`, `perDay`, `times`).")),
            ("scenario", record([
                ("name", string("The scenario's name (default: the file name).")),
                ("description", string()),
                ("users", integer("How many users.", minimum: 1)),
                ("days", integer("How many local days (1 to 366).", minimum: 1)),
                ("start", string("Day 1, `YYYY-MM-DD`.", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")),
                ("seed", integer("The default seed.", minimum: 0)),
                ("population", record([
                    ("timezone", ref("scenarioValue")), ("permission", ref("scenarioValue")),
                    ("prefs", values), ("user", values), ("state", values), ("daily", values),
                ], description: "How each user is drawn.")),
                ("triggers", list(ref("scenarioTrigger"), "The triggers.")),
                ("plan", record([
                    ("at", ref("timeOfDay")), ("horizon", ref("duration")),
                    ("candidates", list(record([("type", ref("identifier")), ("at", ref("timeOfDay")), ("params", values)], required: ["type"]),
                                        "What the daily plan decides together.")),
                ], required: ["at", "candidates"], description: "The app's daily planning run.")),
                ("changes", list(record([
                    ("day", integer("The first local day (1-based) it holds.", minimum: 1)),
                    ("share", probability), ("prefs", values), ("user", values), ("state", values),
                ], required: ["day"]), "State that changes over the days.")),
                ("behaviour", record([
                    ("open", reaction), ("dismiss", reaction),
                    ("categories", object([("type", .string("object")), ("additionalProperties", reactions)])),
                ], description: "How users react to deliveries.")),
            ], required: ["users", "days", "triggers"], description: "A simulation scenario (docs/simulate.md).")),
        ]
    }
}
