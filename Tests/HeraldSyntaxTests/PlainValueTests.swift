import Testing
import HeraldSyntax

/// `PlainValue`: the one rule by which an untyped YAML scalar becomes a value (test files'
/// requests and expectations, scenario literals, a bundle's numbers).
@Suite struct PlainValueTests {
    /// The value of `v` in the one-line document `v: <text>`.
    static func value(_ text: String) throws -> PlainValue {
        let root = try #require(YAMLReader.read(SourceFile(path: "t.yaml", text: "v: \(text)\n")).root)
        return try #require(root["v"]?.plainValue)
    }

    @Test(arguments: [
        ("null", PlainValue.null), ("~", .null), ("", .null), ("Null", .null), ("NULL", .null),
        ("true", .bool(true)), ("false", .bool(false)),
        // YAML 1.1's booleans are text here, as everywhere in Herald's strict reading.
        ("yes", .string("yes")), ("True", .string("True")),
        ("0", .int(0)), ("42", .int(42)), ("-7", .int(-7)), ("123456789012345678", .int(123_456_789_012_345_678)),
        // Not integers: a sign `+`, 19 digits, hex, underscores.
        ("+5", .string("+5")), ("1234567890123456789", .string("1234567890123456789")), ("0x1F", .string("0x1F")), ("1_000", .string("1_000")),
        ("1.5", .decimal(1.5)), ("-0.25", .decimal(-0.25)), ("2.5e-3", .decimal(0.0025)), ("1.0E2", .decimal(100)),
        // Not decimals: no digit on one side of the point, a bare exponent, hex floats, infinities.
        ("1.", .string("1.")), (".5", .string(".5")), ("1e5", .string("1e5")), ("0x1.8p1", .string("0x1.8p1")),
        (".inf", .string(".inf")), ("1.5e999", .string("1.5e999")),
        ("\"42\"", .string("42")), ("'true'", .string("true")), ("\"\"", .string("")), ("2026-03-08T19:00:00Z", .string("2026-03-08T19:00:00Z")),
    ])
    func readsAScalar(_ text: String, _ expected: PlainValue) throws {
        #expect(try Self.value(text) == expected)
    }

    @Test func numbersOfBothKinds() throws {
        #expect(try Self.value("3").number == 3)
        #expect(try Self.value("0.8").number == 0.8)
        #expect(try Self.value("\"0.8\"").number == nil)
        #expect(try Self.value("true").number == nil)
    }

    @Test func mappingsAndListsHaveNoPlainValue() throws {
        let root = try #require(YAMLReader.read(SourceFile(path: "t.yaml", text: "a: {b: 1}\nc: [1]\n")).root)
        #expect(root["a"]?.plainValue == nil)
        #expect(root["c"]?.plainValue == nil)
    }
}
