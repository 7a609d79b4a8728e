import Foundation
import HeraldContract
@testable import HeraldLanguageServer
import HeraldTestSupport
import Testing

/// A `herald lsp` session driven message by message on a copy of the Handz bundle.
@Suite struct LanguageServerTests {
    let root: String

    init() throws {
        let manager = FileManager.default
        root = manager.temporaryDirectory.appendingPathComponent("herald-lsp-\(UUID().uuidString)").path
        for part in ["catalog/handz", "policies/handz"] {
            try manager.createDirectory(atPath: root + "/" + (part as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.copyItem(atPath: BuiltProducts.path(part), toPath: root + "/" + part)
        }
    }

    func started(encodings: [String] = ["utf-16"]) throws -> LanguageServer {
        let server = LanguageServer()
        let answers = server.handle(try JSON.parse("""
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"\(LanguageServer.uri(ofPath: root))",
             "capabilities":{"general":{"positionEncodings":\(JSON.array(encodings.map(JSON.string)).serialized())}}}}
            """))
        #expect(answers.first?["result"]?["capabilities"]?["textDocumentSync"]?["change"] == .int(1))
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)).isEmpty)
        return server
    }

    func uri(_ relative: String) -> String { LanguageServer.uri(ofPath: root + "/" + relative) }

    func text(_ relative: String) throws -> String { try String(contentsOfFile: root + "/" + relative, encoding: .utf8) }

    static func notification(_ method: String, _ params: JSON) -> JSON {
        .object([.init("jsonrpc", .string("2.0")), .init("method", .string(method)), .init("params", params)])
    }

    func open(_ server: LanguageServer, _ relative: String, _ text: String) -> [JSON] {
        server.handle(Self.notification("textDocument/didOpen", .object([
            .init("textDocument", .object([.init("uri", .string(uri(relative))), .init("languageId", .string("yaml")),
                                           .init("version", .int(1)), .init("text", .string(text))])),
        ])))
    }

    func change(_ server: LanguageServer, _ relative: String, _ text: String) -> [JSON] {
        server.handle(Self.notification("textDocument/didChange", .object([
            .init("textDocument", .object([.init("uri", .string(uri(relative))), .init("version", .int(2))])),
            .init("contentChanges", .array([.object([.init("text", .string(text))])])),
        ])))
    }

    /// The diagnostics published for `relative` among `messages`.
    func diagnostics(_ messages: [JSON], _ relative: String) -> [JSON]? {
        messages.last { $0["method"]?.stringValue == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri(relative) }?["params"]?["diagnostics"]?.elements
    }

    @Test func anUnsavedMisspeltStateFieldIsAnErrorAtItsPlaceAndClearsWhenFixed() throws {
        let server = try started()
        let original = try text("policies/handz/policy.yaml")
        #expect(diagnostics(open(server, "policies/handz/policy.yaml", original), "policies/handz/policy.yaml") == [])
        let broken = original.replacingOccurrences(of: "state.session.midFlow\"", with: "state.session.midFlw\"")
        let published = try #require(diagnostics(change(server, "policies/handz/policy.yaml", broken), "policies/handz/policy.yaml"))
        let error = try #require(published.first { $0["severity"] == .int(1) })
        #expect(error["code"]?.stringValue?.hasPrefix("H") == true)
        #expect(error["source"] == .string("herald"))
        #expect(error["message"]?.stringValue?.contains("midFlw") == true)
        // Line 171 of the file (1-based) is line 170 here; the file on disk is unchanged.
        #expect(error["range"]?["start"]?["line"] == .int(170))
        #expect(try text("policies/handz/policy.yaml") == original)
        #expect(diagnostics(change(server, "policies/handz/policy.yaml", original), "policies/handz/policy.yaml") == [])
    }

    @Test func aCatalogEditIsCheckedAgainstThePoliciesThatUseIt() throws {
        let server = try started()
        let types = try text("catalog/handz/types.yaml")
        let renamed = types.replacingOccurrences(of: "  N-MAINT-DUE-TODAY:\n", with: "  N-MAINT-DUE-TODAY-RENAMED:\n")
        #expect(renamed != types)
        let messages = open(server, "catalog/handz/types.yaml", renamed)
        // The policy names the old id in a batch's members: its file gets the error.
        let policy = try #require(diagnostics(messages, "policies/handz/policy.yaml"))
        #expect(policy.contains { $0["severity"] == .int(1) && $0["message"]?.stringValue?.contains("N-MAINT-DUE-TODAY") == true })
        // Closing the document reads the file again: the error goes.
        let closed = server.handle(Self.notification("textDocument/didClose", .object([
            .init("textDocument", .object([.init("uri", .string(uri("catalog/handz/types.yaml")))])),
        ])))
        #expect(diagnostics(closed, "policies/handz/policy.yaml") == [])
    }

    @Test func aMisspeltCategorySaysWhatWasMeant() throws {
        let server = try started()
        let types = try text("catalog/handz/types.yaml")
        let broken = types.replacingOccurrences(of: "    category: maintenance\n", with: "    category: maintenanc\n")
        let published = try #require(diagnostics(open(server, "catalog/handz/types.yaml", broken), "catalog/handz/types.yaml"))
        #expect(published.contains { $0["message"]?.stringValue?.contains("did you mean `maintenance`?") == true })
    }

    @Test func textThatIsNotYAMLOrTooLargeIsADiagnostic() throws {
        let server = try started()
        let notYAML = try #require(diagnostics(open(server, "policies/handz/policy.yaml", "catalog: [unclosed\n  : : :\n"), "policies/handz/policy.yaml"))
        #expect(notYAML.contains { $0["code"]?.stringValue?.hasPrefix("H01") == true })
        let huge = String(repeating: "# padding\n", count: 5 << 20)
        let tooLarge = try #require(diagnostics(change(server, "policies/handz/policy.yaml", huge), "policies/handz/policy.yaml"))
        #expect(tooLarge.contains { $0["code"] == .string("H0110") })
    }

    @Test func columnsCountUTF16UnitsUnlessUTF32IsAgreed() throws {
        let lines = LineTable(bytes: Array("a😀b: x\n".utf8))
        #expect(lines.utf16Column(line: 0, scalarColumn: 2) == 3)
        #expect(lines.utf16Column(line: 0, scalarColumn: 1) == 1)
        let offered = try JSON.parse(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-32","utf-16"]}}}}"#)
        #expect(LanguageServer().handle(offered).first?["result"]?["capabilities"]?["positionEncoding"] == .string("utf-32"))
        let notOffered = try JSON.parse(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        #expect(LanguageServer().handle(notOffered).first?["result"]?["capabilities"]?["positionEncoding"] == .string("utf-16"))
    }

    @Test func protocolMistakesAreJSONRPCErrors() throws {
        let server = LanguageServer()
        let early = server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{}}"#))
        #expect(early.first?["error"]?["code"] == .int(-32002))
        #expect(early.first?["id"] == .int(7))
        #expect(server.handle(try JSON.parse("[1,2]")).first?["error"]?["code"] == .int(-32600))
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}"#)).first?["error"]?["code"] == .int(-32600))
        _ = server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#))
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#)).first?["error"]?["code"] == .int(-32600))
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":3,"method":"no/such","params":{}}"#)).first?["error"]?["code"] == .int(-32601))
        // A notification never gets an answer, even a malformed one.
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}"#)).isEmpty)
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"#)).first?["result"] == .null)
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{}}"#)).first?["error"]?["code"] == .int(-32600))
        #expect(server.handle(try JSON.parse(#"{"jsonrpc":"2.0","method":"exit"}"#)).isEmpty)
        #expect(server.state == .exited(code: 0))
    }

    @Test func exitWithoutShutdownIsCodeOne() throws {
        let server = try started()
        _ = server.handle(try JSON.parse(#"{"jsonrpc":"2.0","method":"exit"}"#))
        #expect(server.state == .exited(code: 1))
    }

    @Test func fileURIsArePercentDecodedAndEncoded() {
        #expect(LanguageServer.path(ofURI: "file:///tmp/a%20b/p%C3%A9.yaml") == "/tmp/a b/pé.yaml")
        #expect(LanguageServer.path(ofURI: "file://localhost/tmp/x.yaml") == "/tmp/x.yaml")
        #expect(LanguageServer.path(ofURI: "untitled:Untitled-1") == nil)
        #expect(LanguageServer.uri(ofPath: "/tmp/a b/pé.yaml") == "file:///tmp/a%20b/p%C3%A9.yaml")
    }
}
