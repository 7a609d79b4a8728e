import Foundation
public import HeraldContract
import HeraldPolicy
import HeraldSyntax

/// The state of one `herald lsp` session and its answers: each message from the client goes
/// in, the messages to send go out (`handle`). Reading and writing the stream is
/// `MessageStream`'s; nothing here touches standard input or output, so a test drives a
/// session message by message.
///
/// What it serves: the validator's diagnostics (codes, spans, notes, "did you mean") for the
/// bundle of each open document, and for every policy whose catalog it is, read with the open
/// documents' unsaved text in place of their files.
public final class LanguageServer {
    public enum State: Equatable {
        case starting, running, shuttingDown
        case exited(code: Int32)
    }

    public private(set) var state = State.starting
    /// Open documents: their text by path, and the URI the client named each by.
    private var documents: [String: (uri: String, text: [UInt8])] = [:]
    /// The diagnostics each bundle directory last gave, by file, so that a fixed file is
    /// cleared and a file two bundles read shows both.
    private var reported: [String: [String: [JSON]]] = [:]
    private var workspaceRoot: String?
    private var encoding = PositionEncoding.utf16

    public init() {}

    /// The messages to send in answer to `message` (responses and notifications).
    public func handle(_ message: JSON) -> [JSON] {
        guard case .object = message, message["jsonrpc"]?.stringValue == "2.0" else {
            return [Self.error(id: message["id"] ?? .null, code: .invalidRequest, "not a JSON-RPC 2.0 message")]
        }
        guard let method = message["method"]?.stringValue else {
            // A response to a request of ours; the server sends none, so there is nothing to match.
            if message["id"] != nil, message["result"] != nil || message["error"] != nil { return [] }
            return [Self.error(id: message["id"] ?? .null, code: .invalidRequest, "a message needs a `method`")]
        }
        let id = message["id"]
        if let id, !Self.isValidID(id) {
            return [Self.error(id: .null, code: .invalidRequest, "an `id` is a number or a string")]
        }
        let params = message["params"] ?? .null
        if method == "exit" {
            state = .exited(code: state == .shuttingDown ? 0 : 1)
            return []
        }
        switch state {
        case .starting where method != "initialize":
            return id.map { [Self.error(id: $0, code: .serverNotInitialized, "the first request must be `initialize`")] } ?? []
        case .shuttingDown:
            return id.map { [Self.error(id: $0, code: .invalidRequest, "the server is shutting down; only `exit` is accepted")] } ?? []
        case .exited:
            return []
        default:
            break
        }
        if let id {
            return request(method, id: id, params: params)
        }
        return notification(method, params: params)
    }

    private func request(_ method: String, id: JSON, params: JSON) -> [JSON] {
        switch method {
        case "initialize":
            guard state == .starting else { return [Self.error(id: id, code: .invalidRequest, "`initialize` was already received")] }
            state = .running
            workspaceRoot = Self.workspaceRoot(params)
            let offered = params["capabilities"]?["general"]?["positionEncodings"]?.elements?.compactMap(\.stringValue) ?? []
            encoding = offered.contains("utf-32") ? .utf32 : .utf16
            return [Self.result(id: id, .object([
                .init("capabilities", .object([
                    .init("positionEncoding", .string(encoding.rawValue)),
                    .init("textDocumentSync", .object([
                        .init("openClose", .bool(true)),
                        .init("change", .int(1)),
                        .init("save", .object([.init("includeText", .bool(false))])),
                    ])),
                ])),
                .init("serverInfo", .object([.init("name", .string("herald"))])),
            ]))]
        case "shutdown":
            state = .shuttingDown
            return [Self.result(id: id, .null)]
        default:
            return [Self.error(id: id, code: .methodNotFound, "`\(method)` is not supported")]
        }
    }

    private func notification(_ method: String, params: JSON) -> [JSON] {
        switch method {
        case "textDocument/didOpen":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(ofURI: uri),
                  let text = params["textDocument"]?["text"]?.stringValue else { return [] }
            documents[path] = (uri, Array(text.utf8))
            return diagnostics(after: path)
        case "textDocument/didChange":
            // Full sync (`change: 1`): the last change holds the whole text.
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(ofURI: uri),
                  let text = params["contentChanges"]?.elements?.last?["text"]?.stringValue else { return [] }
            documents[path] = (uri, Array(text.utf8))
            return diagnostics(after: path)
        case "textDocument/didSave":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(ofURI: uri) else { return [] }
            return diagnostics(after: path)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let path = Self.path(ofURI: uri) else { return [] }
            documents[path] = nil
            return diagnostics(after: path)
        default:
            // `initialized`, `$/cancelRequest`, `$/setTrace` and any other notification: nothing to do.
            return []
        }
    }

    // MARK: Diagnostics

    /// Validates every bundle `path` belongs to, with the open documents' text, and publishes
    /// the diagnostics of each file those bundles read or last reported on (an empty list for
    /// a file that has none now). A file read by several bundles (a catalog) gets them all.
    private func diagnostics(after path: String) -> [JSON] {
        guard Self.isYAML(path) else { return [] }
        let unsaved = documents.mapValues(\.text)
        var touched: Set<String> = [path]
        for bundle in BundleLocator(workspaceRoot: workspaceRoot).bundles(containing: path, unsaved: unsaved) {
            let result = Validator.validate(bundle, unsaved: unsaved)
            var byFile: [String: [JSON]] = [:]
            for file in result.sources.keys { byFile[file] = [] }
            for diagnostic in result.diagnostics.sorted {
                byFile[diagnostic.span?.start.path ?? path, default: []].append(lspDiagnostic(diagnostic, sources: result.sources))
            }
            if let previous = reported[bundle] { touched.formUnion(previous.keys) }
            touched.formUnion(byFile.keys)
            reported[bundle] = byFile
        }
        return touched.sorted().map { file in
            var items: [JSON] = []
            for bundle in reported.keys.sorted() {
                for item in reported[bundle]?[file] ?? [] where !items.contains(item) { items.append(item) }
            }
            return publish(file, items)
        }
    }

    private func publish(_ path: String, _ diagnostics: [JSON]) -> JSON {
        .object([
            .init("jsonrpc", .string("2.0")),
            .init("method", .string("textDocument/publishDiagnostics")),
            .init("params", .object([
                .init("uri", .string(documents[path]?.uri ?? Self.uri(ofPath: path))),
                .init("diagnostics", .array(diagnostics)),
            ])),
        ])
    }

    private func lspDiagnostic(_ diagnostic: Diagnostic, sources: [String: SourceFile]) -> JSON {
        var lines = [diagnostic.message]
        if let suggestion = diagnostic.suggestion { lines.append("help: did you mean `\(suggestion)`?") }
        lines += diagnostic.notes.filter { $0.span == nil }.map { "note: \($0.message)" }
        var members: [JSON.Member] = [
            .init("range", range(diagnostic.span, sources: sources)),
            .init("severity", .int(Self.severity(diagnostic.severity))),
            .init("code", .string(diagnostic.code.id)),
            .init("source", .string("herald")),
            .init("message", .string(lines.joined(separator: "\n"))),
        ]
        let related: [JSON] = diagnostic.notes.compactMap { note in
            guard let span = note.span else { return nil }
            return .object([
                .init("location", .object([
                    .init("uri", .string(documents[span.start.path]?.uri ?? Self.uri(ofPath: span.start.path))),
                    .init("range", range(span, sources: sources)),
                ])),
                .init("message", .string(note.message)),
            ])
        }
        if !related.isEmpty { members.append(.init("relatedInformation", .array(related))) }
        return .object(members)
    }

    /// An LSP range (0-based lines, columns in the negotiated encoding) for Herald's 1-based
    /// lines and scalar columns; no span is the file's first position.
    private func range(_ span: SourceSpan?, sources: [String: SourceFile]) -> JSON {
        guard let span else { return Self.range(0, 0, 0, 0) }
        let lines = sources[span.start.path].map { LineTable(bytes: $0.bytes) }
        let start = position(span.start, lines: lines)
        let end = position(span.end, lines: lines)
        return Self.range(start.line, start.character, end.line, end.character)
    }

    private func position(_ location: SourceLocation, lines: LineTable?) -> (line: Int, character: Int) {
        let line = max(0, location.line - 1)
        let scalars = max(0, location.column - 1)
        guard encoding == .utf16, let lines else { return (line, scalars) }
        return (line, lines.utf16Column(line: line, scalarColumn: scalars))
    }

    // MARK: Messages

    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case serverNotInitialized = -32002
    }

    static func result(id: JSON, _ result: JSON) -> JSON {
        .object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("result", result)])
    }

    static func error(id: JSON, code: ErrorCode, _ message: String) -> JSON {
        .object([
            .init("jsonrpc", .string("2.0")), .init("id", id),
            .init("error", .object([.init("code", .int(code.rawValue)), .init("message", .string(message))])),
        ])
    }

    /// The answer to a message that is not JSON at all.
    public static func parseError(_ problem: String) -> JSON {
        error(id: .null, code: .parseError, "the message is not JSON: \(problem)")
    }

    static func isValidID(_ id: JSON) -> Bool {
        switch id {
        case .int, .string: true
        default: false
        }
    }

    static func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSON {
        .object([
            .init("start", .object([.init("line", .int(startLine)), .init("character", .int(startCharacter))])),
            .init("end", .object([.init("line", .int(endLine)), .init("character", .int(endCharacter))])),
        ])
    }

    static func severity(_ severity: Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        default: 3
        }
    }

    static func isYAML(_ path: String) -> Bool { path.hasSuffix(".yaml") || path.hasSuffix(".yml") }

    static func workspaceRoot(_ params: JSON) -> String? {
        if let uri = params["workspaceFolders"]?.elements?.first?["uri"]?.stringValue { return path(ofURI: uri) }
        if let uri = params["rootUri"]?.stringValue { return path(ofURI: uri) }
        return params["rootPath"]?.stringValue
    }

    /// The absolute path of a `file:` URI, percent-decoded; nil for any other scheme.
    static func path(ofURI uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = uri.dropFirst("file://".count)
        // `file://host/path`: only the local host (empty or `localhost`) is a path here.
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/"), let path = String(rest).removingPercentEncoding else { return nil }
        return path
    }

    static func uri(ofPath path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":@;=&+$,")
        return "file://" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
    }
}

/// How positions count characters in a line (LSP 3.17 `positionEncoding`).
enum PositionEncoding: String {
    case utf16 = "utf-16"
    case utf32 = "utf-32"
}

/// Where each line of a file starts, to turn scalar columns into UTF-16 columns.
struct LineTable {
    let bytes: [UInt8]
    let starts: [Int]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        self.starts = starts
    }

    /// The UTF-16 offset of the scalar at `scalarColumn` (0-based) in `line` (0-based).
    func utf16Column(line: Int, scalarColumn: Int) -> Int {
        guard line < starts.count else { return scalarColumn }
        let end = line + 1 < starts.count ? starts[line + 1] : bytes.count
        let text = String(decoding: bytes[starts[line]..<end], as: UTF8.self)
        var column = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == scalarColumn { return column }
            column += scalar.utf16.count
        }
        return column + max(0, scalarColumn - text.unicodeScalars.count)
    }
}
