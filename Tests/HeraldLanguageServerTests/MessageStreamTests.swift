import Foundation
import HeraldContract
@testable import HeraldLanguageServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The base protocol's framing over pipes, and a whole session through `run`.
@Suite struct MessageStreamTests {
    /// Runs a session on `input` (raw bytes, from a file) and returns what it wrote (to a
    /// file) and its exit code.
    static func session(_ input: [UInt8], maxBody: Int = 64 << 20) -> (output: String, code: Int32) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("herald-lsp-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: base + ".in", contents: Data(input))
        defer {
            try? FileManager.default.removeItem(atPath: base + ".in")
            try? FileManager.default.removeItem(atPath: base + ".out")
        }
        let inputDescriptor = open(base + ".in", O_RDONLY)
        let outputDescriptor = open(base + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var stream = MessageStream(input: inputDescriptor, output: outputDescriptor, maxBody: maxBody)
        let code = LanguageServer().run(&stream)
        close(inputDescriptor)
        close(outputDescriptor)
        let output = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        return (output, code)
    }

    static func framed(_ body: String) -> [UInt8] { Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8) }

    @Test func aSessionAnswersInFramesAndExitsZeroAfterShutdown() {
        let input = Self.framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
            + Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n".utf8) + Self.framed(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
            + Self.framed(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let (output, code) = Self.session(input)
        #expect(code == 0)
        #expect(output.hasPrefix("Content-Length: "))
        #expect(output.contains(#""id":2"#))
    }

    @Test func badBodiesAreAnsweredAndTheSessionGoesOn() {
        let input = Self.framed("{not json") + Self.framed(String(repeating: "x", count: 2000))
            + Self.framed(#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}"#)
        let (output, code) = Self.session(input, maxBody: 1000)
        #expect(output.contains("-32700"))
        #expect(output.contains("2000 bytes"))
        #expect(output.contains(#""id":9"#))
        // The input ended without `shutdown`: the client is gone.
        #expect(code == 1)
    }

    /// Messages that span many reads, the buffer moved between them (a 2 MB document, then
    /// hundreds of small messages).
    @Test func messagesAcrossManyReadsAreFramed() {
        let document = String(repeating: "# a comment line\n", count: 120_000)
        var input = Self.framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        input += Self.framed(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///nonexistent/x.yaml","languageId":"yaml","version":1,"text":"\#(document.replacingOccurrences(of: "\n", with: "\\n"))"}}}"#)
        for id in 2..<400 { input += Self.framed(#"{"jsonrpc":"2.0","id":\#(id),"method":"no/such"}"#) }
        input += Self.framed(#"{"jsonrpc":"2.0","id":400,"method":"shutdown"}"#) + Self.framed(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let (output, code) = Self.session(input)
        #expect(code == 0)
        #expect(output.components(separatedBy: "-32601").count - 1 == 398)
        #expect(output.contains(#""id":400"#))
    }

    @Test func aHeaderWithoutLengthEndsTheSession() {
        let (output, code) = Self.session(Array("Content-Type: x\r\n\r\n{}".utf8))
        #expect(output.isEmpty)
        #expect(code == 1)
        #expect(Self.session(Array("garbage without a colon\r\n".utf8)).code == 1)
        #expect(Self.session([]).code == 1)
    }
}
