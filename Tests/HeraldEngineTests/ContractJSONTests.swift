import Testing
import HeraldContract
@testable import HeraldEngine

@Suite struct ContractJSONTests {
    @Test func parsesAllValueKinds() throws {
        let json = try JSON.parse(#" { "a": [1, -2, 3.5, 1e3, -0, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"} } "#)
        #expect(json["a"] == [1, -2, 3.5, 1000.0, 0, true, false, nil])
        #expect(json["b"]?["c"] == .string("d\né😀"))
        #expect(json.members?.map(\.key) == ["a", "b"])
    }

    @Test func keepsKeyOrderButWritesSortedKeys() throws {
        let json = try JSON.parse(#"{"z": 1, "a": {"y": 2, "b": 3}, "m": []}"#)
        #expect(json.members?.map(\.key) == ["z", "a", "m"])
        #expect(json.serialized() == #"{"a":{"b":3,"y":2},"m":[],"z":1}"#)
        let other = try JSON.parse(#"{"m": [], "a": {"b": 3, "y": 2}, "z": 1}"#)
        #expect(other == json)
        #expect(other.serialized() == json.serialized())
    }

    @Test func prettyOutput() throws {
        let json: JSON = ["b": [1, 2], "a": "x", "c": [:], "d": []]
        #expect(json.serialized(pretty: true) == """
        {
          "a": "x",
          "b": [
            1,
            2
          ],
          "c": {},
          "d": []
        }
        """)
    }

    @Test func escapesStrings() {
        let json = JSON.string("q\"b\\n\n\t\u{01}é/")
        #expect(json.serialized() == #""q\"b\\n\n\t\u0001é/""#)
    }

    @Test func numbers() throws {
        #expect(try JSON.parse("9223372036854775807") == .int(Int.max))
        #expect(try JSON.parse("-9223372036854775808") == .int(Int.min))
        #expect(try JSON.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSON.parse("0.1").serialized() == "0.1")
        #expect(try JSON.parse("1E2") == .double(100))
        #expect(JSON.double(.infinity).serialized() == "null")
        #expect(JSON.int(1) != JSON.double(1))
    }

    @Test func roundTripsThroughText() throws {
        let text = #"{"a":[1,2.5,"x",{"k":null}],"b":true,"c":"\u001f"}"#
        let json = try JSON.parse(text)
        #expect(json.serialized() == text)
        #expect(try JSON.parse(json.serialized(pretty: true)) == json)
    }

    @Test(arguments: [
        ("", 1, 1, "expected a value, got end of input"),
        ("{", 1, 2, "expected a string key, got end of input"),
        ("[1,]", 1, 4, "expected a value, got `]`"),
        ("{\"a\":1,}", 1, 8, "expected a string key, got `}`"),
        ("{\"a\":1 \"b\":2}", 1, 8, "expected `,` or `}`, got `\"`"),
        ("[01]", 1, 2, "leading zero in number"),
        ("[1.]", 1, 4, "expected a digit after `.`"),
        ("-", 1, 1, "invalid number"),
        ("NaN", 1, 1, "expected a value, got `N`"),
        ("tru", 1, 1, "expected `true`"),
        ("{\"a\":1,\n \"a\":2}", 2, 2, "duplicate key `a`"),
        ("\"abc", 1, 1, "unterminated string"),
        ("\"a\tb\"", 1, 3, "control character in string (escape it)"),
        ("\"\\x\"", 1, 2, "invalid escape in string"),
        ("\"\\ud800\"", 1, 2, "lone surrogate `\\uD800`"),
        ("\"\\udc00\"", 1, 2, "lone surrogate `\\uDC00`"),
        ("\"\\u12\"", 1, 2, "incomplete `\\u` escape"),
        ("1e999", 1, 1, "number `1e999` is out of range"),
        ("[1] 2", 1, 5, "unexpected `2` after the value"),
        ("// c\n1", 1, 1, "expected a value, got `/`"),
        ("\"é\" x", 1, 5, "unexpected `x` after the value"),
    ])
    func reportsErrorsWithPositions(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONParseError(line: line, column: column, message: message)) {
            try JSON.parse(text)
        }
    }

    /// Duplicate keys are found by scanning the first 16 members and through a set after: at
    /// every position around the switch, and an object of distinct keys of any size parses.
    @Test func findsDuplicateKeysInObjectsOfAnySize() throws {
        for size in [1, 2, 15, 16, 17, 40] {
            let keys = (0 ..< size).map { "k\($0)" }
            let object = "{" + keys.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
            #expect(try JSON.parse(object).members?.map(\.key) == keys)
            for repeated in Set([0, size / 2, size - 1]) {
                let text = "{" + (keys + [keys[repeated]]).map { "\"\($0)\":0" }.joined(separator: ",") + "}"
                let column = text.count - "\"\(keys[repeated])\":0}".count + 1
                #expect(throws: JSONParseError(line: 1, column: column, message: "duplicate key `\(keys[repeated])`")) {
                    try JSON.parse(text)
                }
            }
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError(line: 1, column: 3, message: "invalid UTF-8")) {
            try JSON.parse(bytes: [0x22, 0x61, 0xC3, 0x28, 0x22])
        }
        #expect(throws: JSONParseError.self) { try JSON.parse(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSON.parse(bytes: [0x22, 0xC0, 0xAF, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSON.parse(bytes: [0x22, 0xF0, 0x9F, 0x98]) }
    }

    @Test func enforcesLimits() throws {
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(throws: JSONParseError(line: 1, column: 257, message: "nesting deeper than 256 levels")) {
            try JSON.parse(deep)
        }
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        _ = try JSON.parse(ok)
        #expect(throws: JSONParseError.self) { try JSON.parse("[1, 2, 3]", limits: JSONLimits(maxBytes: 4)) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSON.parse(hostile) }
    }

    @Test func fuzzedMutationsNeverCrash() throws {
        let valid = Array(ContractRequestTests.exampleRequest.utf8)
        var rng = SplitMix64(seed: 0x4845_5241_4C44)
        let interesting: [UInt8] = Array(#"{}[],:"\\u0123456789-+.eEtfnrl "#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var parsed = 0, rejected = 0
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let position = Int.random(in: 0..<max(bytes.count, 1), using: &rng)
                let byte = Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where !bytes.isEmpty: bytes[position] = byte
                case 1: bytes.insert(byte, at: min(position, bytes.count))
                case 2 where !bytes.isEmpty: bytes.remove(at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            do {
                let json = try JSON.parse(bytes: bytes)
                parsed += 1
                // Whatever parses must survive a write/read round trip and request decoding.
                #expect(try JSON.parse(json.serialized()) == json)
                _ = try? DecisionRequest(json: json)
            } catch {
                rejected += 1
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(parsed > 0)
        #expect(rejected > 0)
    }
}
