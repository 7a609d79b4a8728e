import HeraldSyntax
import Testing

/// The one JSON string escaper (`JSONString`), which every JSON writer of Herald uses.
@Suite struct JSONStringTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" and \\ back", #""quote \" and \\ back""#),
        ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
        ("\u{0}\u{1F}\u{7F}", #""\u0000\u001f\u007f""#),
        ("line\u{2028}para\u{2029}end", #""line\u2028para\u2029end""#),
        ("café 日本 🎵 \u{2027}\u{202A}", "\"café 日本 🎵 \u{2027}\u{202A}\""),
        ("", #""""#),
    ])
    func escapes(_ value: String, _ expected: String) {
        #expect(JSONString.literal(value) == expected)
        var bytes: [UInt8] = [UInt8(ascii: "x")]
        JSONString.append(value, to: &bytes)
        #expect(bytes == [UInt8(ascii: "x")] + Array(expected.utf8))
    }
}
