// The machine formats: JSON, GitHub Actions workflow commands and SARIF 2.1.0.

extension DiagnosticRenderer {
    // MARK: JSON

    func jsonDocument(_ diagnostics: [Diagnostic]) -> JSONOutput {
        .object([
            ("diagnostics", .array(diagnostics.map(json))),
            ("errors", .int(diagnostics.filter { $0.severity == .error }.count)),
            ("warnings", .int(diagnostics.filter { $0.severity == .warning }.count)),
        ])
    }

    func json(_ diagnostic: Diagnostic) -> JSONOutput {
        let span = diagnostic.span
        return .object([
            ("code", .string(diagnostic.code.id)),
            ("name", .string(diagnostic.code.name)),
            ("severity", .string(diagnostic.severity.rawValue)),
            ("message", .string(diagnostic.message)),
            ("file", .string(span.map { displayPath($0.start.path) })),
            ("line", .int(span?.start.line)),
            ("column", .int(span?.start.column)),
            ("endLine", .int(span?.end.line)),
            ("endColumn", .int(span?.end.column)),
            ("notes", .array(diagnostic.notes.map { note in
                .object([
                    ("message", .string(note.message)),
                    ("file", .string(note.span.map { displayPath($0.start.path) })),
                    ("line", .int(note.span?.start.line)),
                    ("column", .int(note.span?.start.column)),
                ])
            })),
            ("suggestion", .string(diagnostic.suggestion)),
        ])
    }

    // MARK: GitHub Actions

    /// `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=H0123 name::message`, with
    /// notes and the suggestion as further lines of the message.
    func renderGitHub(_ diagnostic: Diagnostic) -> String {
        let command = switch diagnostic.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        var properties: [(String, String)] = []
        if let span = diagnostic.span {
            properties.append(("file", displayPath(span.start.path)))
            properties.append(("line", String(span.start.line)))
            properties.append(("col", String(span.start.column)))
            if span.end.path == span.start.path, span.end.line >= span.start.line {
                properties.append(("endLine", String(span.end.line)))
                properties.append(("endColumn", String(span.end.column)))
            }
        }
        properties.append(("title", "\(diagnostic.code.id) \(diagnostic.code.name)"))
        var message = diagnostic.message
        for note in diagnostic.notes {
            message += "\nnote: " + (note.span.map { displayLocation($0.start) + ": " } ?? "") + note.message
        }
        if let suggestion = diagnostic.suggestion { message += "\nhelp: did you mean `\(suggestion)`?" }
        let props = properties.map { "\($0.0)=\(Self.githubEscapeProperty($0.1))" }.joined(separator: ",")
        return "::\(command) \(props)::\(Self.githubEscapeData(message))\n"
    }

    /// Escapes a workflow command's message: `%`, CR and LF.
    static func githubEscapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Escapes a workflow command's property value: as data, plus `:` and `,`.
    static func githubEscapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in githubEscapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: SARIF

    static let sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

    func sarifDocument(_ diagnostics: [Diagnostic]) -> JSONOutput {
        let codes = DiagnosticCode.all
        var ruleIndex: [String: Int] = [:]
        for (index, code) in codes.enumerated() where ruleIndex[code.id] == nil { ruleIndex[code.id] = index }
        let rules: [JSONOutput] = codes.map { code in
            .object([
                ("id", .string(code.id)),
                ("name", .string(code.name)),
                ("shortDescription", .object([("text", .string(code.summary))])),
                ("defaultConfiguration", .object([("level", .string(Self.sarifLevel(code.defaultSeverity)))])),
            ])
        }
        let results: [JSONOutput] = diagnostics.map { diagnostic in
            var text = diagnostic.message
            if let suggestion = diagnostic.suggestion { text += " (did you mean `\(suggestion)`?)" }
            var members: [(String, JSONOutput)] = [("ruleId", .string(diagnostic.code.id))]
            if let index = ruleIndex[diagnostic.code.id] { members.append(("ruleIndex", .int(index))) }
            members.append(("level", .string(Self.sarifLevel(diagnostic.severity))))
            members.append(("message", .object([("text", .string(text))])))
            members.append(("locations", .array(diagnostic.span.map { [sarifLocation($0)] } ?? [])))
            let related = diagnostic.notes.enumerated().compactMap { index, note -> JSONOutput? in
                guard let span = note.span else { return nil }
                guard case .object(var location) = sarifLocation(span) else { return nil }
                location.insert(("id", .int(index)), at: 0)
                location.append(("message", .object([("text", .string(note.message))])))
                return .object(location)
            }
            if !related.isEmpty { members.append(("relatedLocations", .array(related))) }
            return .object(members)
        }
        return .object([
            ("$schema", .string(Self.sarifSchema)),
            ("version", .string("2.1.0")),
            ("runs", .array([
                .object([
                    ("tool", .object([
                        ("driver", .object([
                            ("name", .string("herald")),
                            ("informationUri", .string(toolInformationURI)),
                            ("rules", .array(rules)),
                        ])),
                    ])),
                    // Herald's columns count Unicode scalars; SARIF's default is UTF-16 code units.
                    ("columnKind", .string("unicodeCodePoints")),
                    ("results", .array(results)),
                ]),
            ])),
        ])
    }

    func sarifLocation(_ span: SourceSpan) -> JSONOutput {
        var region: [(String, JSONOutput)] = [
            ("startLine", .int(span.start.line)),
            ("startColumn", .int(span.start.column)),
        ]
        if span.end.path == span.start.path, span.end.line >= span.start.line {
            region.append(("endLine", .int(span.end.line)))
            region.append(("endColumn", .int(max(span.end.column, span.end.line == span.start.line ? span.start.column : 1))))
        }
        return .object([
            ("physicalLocation", .object([
                ("artifactLocation", .object([("uri", .string(Self.uriPath(displayPath(span.start.path))))])),
                ("region", .object(region)),
            ])),
        ])
    }

    static func sarifLevel(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// A path as a URI reference: characters outside the unreserved set and `/` percent-encoded.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
