/// What an untyped YAML scalar means: the one rule by which Herald reads a value whose type no
/// declaration gives (a test file's request and expectations, a scenario's literals) and the
/// numbers a bundle's typed fields accept.
///
/// A quoted scalar is always text. A plain one is `null` when spelled `null`, `~` or nothing; a
/// boolean only as `true` or `false` (YAML 1.2); an integer when it is an optional `-` and 1 to
/// 18 decimal digits; a decimal when it is an optional `-`, digits, `.`, digits and an optional
/// exponent (`e`/`E`, an optional sign, digits), with a finite value; anything else is text.
/// Instants, times of day and durations are text here: what reads the value parses them.
public enum PlainValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case decimal(Double)
    case string(String)

    /// The value of a scalar as written.
    public init(_ scalar: YAMLScalar) {
        guard scalar.style == .plain else {
            self = .string(scalar.value)
            return
        }
        let text = scalar.value
        if YAMLNode.isNullSpelling(text) {
            self = .null
        } else if text == "true" || text == "false" {
            self = .bool(text == "true")
        } else if let n = Self.integer(text) {
            self = .int(n)
        } else if let d = Self.decimal(text) {
            self = .decimal(d)
        } else {
            self = .string(text)
        }
    }

    /// An integer or a decimal as a number; nil for anything else.
    public var number: Double? {
        switch self {
        case .int(let n): Double(n)
        case .decimal(let d): d
        default: nil
        }
    }

    /// `text` as an integer by the rule above (an optional `-` and 1 to 18 digits), else nil.
    public static func integer(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }

    /// `text` as a decimal by the rule above (`-1.5`, `0.25`, `2.5e-3`), else nil.
    public static func decimal(_ text: String) -> Double? {
        var rest = Substring(text).utf8[...]
        func digits() -> Bool {
            let before = rest.count
            while let c = rest.first, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { rest = rest.dropFirst() }
            return rest.count < before
        }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        guard digits(), rest.first == UInt8(ascii: "."), { rest = rest.dropFirst(); return digits() }() else { return nil }
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard digits() else { return nil }
        }
        guard rest.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

extension YAMLNode {
    /// The scalar's value by `PlainValue`'s rule; nil for a mapping or a list.
    public var plainValue: PlainValue? { scalar.map(PlainValue.init) }

    /// `null`, `~`, `Null`, `NULL` or nothing: YAML 1.2's spellings of null.
    static func isNullSpelling(_ text: String) -> Bool {
        text.isEmpty || text == "null" || text == "~" || text == "Null" || text == "NULL"
    }
}
