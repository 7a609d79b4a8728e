@testable import HeraldPolicy
import Testing

@Suite struct ConcurrentlyTests {
    @Test func mapKeepsInputOrder() {
        let items = Array(0 ..< 200)
        #expect(Concurrently.map(items) { $0 * $0 } == items.map { $0 * $0 })
        #expect(Concurrently.map([Int]()) { $0 }.isEmpty)
        #expect(Concurrently.map([5]) { $0 + 1 } == [6])
    }
}

/// Many types compile in chunks on several cores (`Compilation.compileTypes`): the bundle and
/// its diagnostics must be what a one-by-one compile gives, in declaration order.
@Suite struct ChunkedCompileTests {
    @Test func typesAndErrorsAcrossChunksKeepDeclarationOrder() throws {
        var text = CompilerTestSupport.minimalBundle
        let broken: Set = [3, 700, 1_490]
        for i in 0 ..< 1_500 {
            text += "  t-\(i):\n    category: reminders\n    channels: [push]\n"
            text += broken.contains(i) ? "    colour: red\n" : "    copy: { body: \"Type \(i).\" }\n"
        }
        let first = CompilerTestSupport.validate(text)
        let unknown = first.diagnostics.items.filter { $0.code.id == "H0201" }
        #expect(unknown.count == 3)
        // In declaration order, as a sequential compile appends them.
        let lines = unknown.compactMap { $0.span?.start.line }
        #expect(lines == lines.sorted() && lines.count == 3)
        #expect(unknown.allSatisfy { $0.message.contains("colour") })
        // Deterministic: the same diagnostics, in the same order, every time.
        let second = CompilerTestSupport.validate(text)
        #expect(second.diagnostics.items.map(\.message) == first.diagnostics.items.map(\.message))
        // And with the errors fixed, every type is there, in order.
        let fixed = text.replacingOccurrences(of: "    colour: red\n", with: "    copy: { body: \"Fixed.\" }\n")
        let bundle = try #require(CompilerTestSupport.validate(fixed).bundle)
        #expect(bundle.types.names.count == 1_501)
        #expect(Array(bundle.types.names.prefix(3)) == ["daily-reminder", "t-0", "t-1"])
        #expect(bundle.types.names.last == "t-1499")
    }
}
