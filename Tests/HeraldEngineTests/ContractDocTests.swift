import Foundation
import Testing
import HeraldContract
import HeraldEngine

/// Keeps the examples in `docs/decisions.md` in step with the code.
@Suite struct ContractDocTests {
    static func jsonBlocks() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/decisions.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```json" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func examplesMatchTheCode() throws {
        let blocks = try Self.jsonBlocks()
        try #require(blocks.count == 3)
        #expect(try DecisionRequest.parse(blocks[0]) == DecisionRequest.parse(ContractRequestTests.exampleRequest))
        #expect(blocks[1] == ContractDecisionTests.scheduled.json().serialized(pretty: true))
        #expect(blocks[2] == ContractDecisionTests.suppressed.json().serialized())
    }
}
