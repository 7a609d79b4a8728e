/// A stable diagnostic code: `H` and four digits, never reused or renumbered.
///
/// Codes are declared once, as static members in the `DiagnosticCode+<Area>.swift` files,
/// and registered in `DiagnosticCode.all`; `docs/diagnostics.md` documents each with an
/// example, and a test checks the two lists agree.
///
/// Ranges: H00xx files and bundles · H01xx YAML · H02xx structure (sections and keys) ·
/// H03xx expressions · H04xx references and templates · H05xx lints.
public struct DiagnosticCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `H0101`.
    public let id: String
    /// A short kebab-case name (`yaml-duplicate-key`), for people and SARIF rule names.
    public let name: String
    /// One line saying what the code means, used in SARIF and `docs/diagnostics.md`.
    public let summary: String
    public let defaultSeverity: Severity

    public init(_ id: String, _ name: String, _ summary: String, severity: Severity = .error) {
        self.id = id
        self.name = name
        self.summary = summary
        self.defaultSeverity = severity
    }

    public var description: String { id }

    // Codable as the bare id, so JSON output reads `"code": "H0101"`.
    public init(from decoder: any Decoder) throws {
        let id = try decoder.singleValueContainer().decode(String.self)
        guard let known = DiagnosticCode.byID[id] else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown diagnostic code \(id)"))
        }
        self = known
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }

    public static func == (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Every code Herald can emit, in id order.
    public static let all: [DiagnosticCode] = (bundleCodes + yamlCodes + structureCodes + expressionCodes + referenceCodes + templateCodes + lintCodes + testCodes + timingCodes + channelCodes + scenarioCodes + renderCodes + preferenceCodes + dataCodes + capLimitCodes + firstMemberCodes)
        .sorted { $0.id < $1.id }

    public static let byID: [String: DiagnosticCode] = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
}
