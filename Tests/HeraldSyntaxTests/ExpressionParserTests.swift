import Testing
@testable import HeraldSyntax

@Suite struct ExpressionParserTests {
    /// A compact rendering of the tree, parenthesised, to check precedence.
    func render(_ node: ExpressionNode) -> String {
        switch node.kind {
        case .bool(let b): "\(b)"
        case .int(let n): "\(n)"
        case .string(let s): "'\(s)'"
        case .duration(let s): "\(s)s"
        case .list(let items): "[" + items.map(render).joined(separator: ",") + "]"
        case .name(let segments): segments.map(\.name).joined(separator: ".")
        case .unary(let op, let x): "(\(op.rawValue)\(render(x)))"
        case .binary(let op, let l, let r): "(\(render(l)) \(op.rawValue) \(render(r)))"
        case .conditional(let c, let t, let e): "(\(render(c)) ? \(render(t)) : \(render(e)))"
        case .call(let name, _, let args): "\(name)(" + args.map(render).joined(separator: ",") + ")"
        case .index(let base, let key): render(base) + "[" + render(key) + "]"
        }
    }

    func parsed(_ text: String) -> String? {
        ExpressionParser.parse(text).node.map(render)
    }

    func codes(_ text: String) -> [String] {
        ExpressionParser.parse(text).errors.map(\.code.id)
    }

    @Test(arguments: [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("1 - 2 - 3", "((1 - 2) - 3)"),
        ("a || b && c", "(a || (b && c))"),
        ("a && b || c", "((a && b) || c)"),
        ("a == b < c", "(a == (b < c))"),
        ("x in l == true", "((x in l) == true)"),
        ("a ?? b ?? c", "(a ?? (b ?? c))"),
        ("a ?? b || c", "(a ?? (b || c))"),
        ("c ? a : b ? d : e", "(c ? a : (b ? d : e))"),
        ("c ? a ?? b : d", "(c ? (a ?? b) : d)"),
        ("!a && b", "((!a) && b)"),
        ("-x * 2", "((-x) * 2)"),
        ("!has(state.x)", "(!has(state.x))"),
        ("(1 + 2) * 3", "((1 + 2) * 3)"),
        ("a.b.c % 2 == 0", "((a.b.c % 2) == 0)"),
        ("user.tier in ['free', 'pro']", "(user.tier in ['free','pro'])"),
        ("1h30m + 2w", "(5400s + 1209600s)"),
        ("prefs.types.'N-X'", "prefs.types.N-X"),
        ("sent(N-MAINT-DUE-TODAY, day)", "sent(N-MAINT-DUE-TODAY,day)"),
        ("sent(score.updated, 48h)", "sent(score.updated,172800s)"),
        ("[1, 2,]", "[1,2]"),
        ("\"a\\\"b\"", "'a\"b'"),
        ("m.s[params.id] ?? 'x' == 'y'", "(m.s[params.id] ?? ('x' == 'y'))"),
        ("has(m[a + 'b'])", "has(m[(a + 'b')])"),
    ])
    func precedence(text: String, expected: String) {
        #expect(parsed(text) == expected)
    }

    @Test func anUnclosedIndexIsAnExpectedToken() {
        #expect(codes("m[params.id") == ["H0304"])
    }

    @Test func durations() {
        #expect(ExpressionLexer.parseDuration(Array("30s".utf8)) == 30)
        #expect(ExpressionLexer.parseDuration(Array("15m".utf8)) == 900)
        #expect(ExpressionLexer.parseDuration(Array("48h".utf8)) == 172_800)
        #expect(ExpressionLexer.parseDuration(Array("7d".utf8)) == 604_800)
        #expect(ExpressionLexer.parseDuration(Array("2w".utf8)) == 1_209_600)
        #expect(ExpressionLexer.parseDuration(Array("1h30m".utf8)) == 5_400)
        #expect(ExpressionLexer.parseDuration(Array("30m1h".utf8)) == nil)
        #expect(ExpressionLexer.parseDuration(Array("1h1h".utf8)) == nil)
        #expect(ExpressionLexer.parseDuration(Array("15x".utf8)) == nil)
        #expect(ExpressionLexer.parseDuration(Array("99999999999999999999w".utf8)) == nil)
    }

    @Test(arguments: [
        ("state.x # 1", "H0301"),
        ("a & b", "H0301"),
        ("a = b", "H0301"),
        ("'open", "H0302"),
        ("15x > 3", "H0303"),
        ("99999999999999999999", "H0303"),
        ("(1 + 2", "H0304"),
        ("1 +", "H0304"),
        ("", "H0304"),
        ("a.", "H0304"),
        ("f(1 2)", "H0304"),
        ("c ? a", "H0304"),
        ("1 2", "H0305"),
        ("a )", "H0305"),
    ])
    func errors(text: String, code: String) {
        #expect(codes(text) == [code])
    }

    @Test func errorRanges() {
        let e = ExpressionParser.parse("a && b # c").errors
        #expect(e.first?.range == 7..<8)
        let t = ExpressionParser.parse("(a > 1").errors
        #expect(t.first?.range == 6..<6)
        let u = ExpressionParser.parse("x > 15x").errors
        #expect(u.first?.range == 4..<7)
        #expect(ExpressionParser.parse("a & b").errors.first?.suggestion == "&&")
    }

    @Test func everyLexicalErrorIsReported() {
        #expect(codes("# and $") == ["H0301", "H0301"])
    }

    @Test func tooLong() {
        let text = String(repeating: "1 + ", count: 1100) + "1"
        #expect(codes(text) == ["H0314"])
        let ok = String(repeating: "1+", count: 2000) + "1"  // 4,001 characters
        #expect(codes(ok) != ["H0314"])
    }

    @Test func depthLimit() {
        let nested = { (n: Int) in String(repeating: "(", count: n) + "1" + String(repeating: ")", count: n) }
        #expect(parsed(nested(60)) == "1")
        #expect(codes(nested(100)) == ["H0315"])
        #expect(codes(String(repeating: "!", count: 63) + "a").isEmpty)
        #expect(codes(String(repeating: "!", count: 64) + "a") == ["H0315"])
        #expect(codes(String(repeating: "a + ", count: 64) + "a") == ["H0315"])
        #expect(codes(String(repeating: "a ?? ", count: 200) + "a") == ["H0315"])
    }

    @Test func hostileInputsNeverCrash() {
        let parens = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(ExpressionParser.parse(parens).errors.first?.code == .exprTooLong)
        // The length limit would stop these first; parse the tokens directly past it too.
        #expect(codes(String(repeating: "(", count: 4000)) == ["H0315"])
        #expect(codes(String(repeating: "!", count: 100_000) + "a") == ["H0314"])
        #expect(codes(String(repeating: "!", count: 4000) + "a") == ["H0315"])
        #expect(codes(String(repeating: "[", count: 4000)) == ["H0315"])
        #expect(codes(String(repeating: "-", count: 4000) + "1") == ["H0315"])
        #expect(codes(String(repeating: "a ? ", count: 1000) + "b") == ["H0315"])
    }

    @Test func fuzzNeverCrashes() {
        var rng = SplitMix(seed: 0x5EED_0303)
        let pieces = ["state", ".", "x", "(", ")", "[", "]", ",", "'a'", "\"b", "1", "15m", "7q", "!", "-", "+", "*", "/", "%",
                      "&&", "||", "??", "?", ":", "==", "!=", "<", "<=", ">", ">=", "in", "has", "sent", " ", "é", "#", "&",
                      "true", "false", "null", "\\", "'", "9999999999999999999999"]
        for _ in 0..<3000 {
            let count = Int(rng.next() % 40)
            var text = ""
            for _ in 0..<count { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let (node, errors) = ExpressionParser.parse(text)
            #expect((node == nil) != errors.isEmpty, "\(text)")
            for e in errors { #expect(e.range.lowerBound >= 0 && e.range.upperBound <= text.utf8.count) }
        }
        // Random bytes, including invalid UTF-8 once decoded.
        for _ in 0..<1000 {
            let bytes = (0..<Int(rng.next() % 30)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = ExpressionParser.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// SplitMix64, for reproducible fuzzing.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
