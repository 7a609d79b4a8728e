import Testing
import HeraldSyntax
@testable import HeraldPolicy

/// A batch group's `by: threadId` (issue 18, P11): compiled into `byThread`, `{thread}` allowed
/// in its copy, link and thread id only, any other `by` refused (H0288).
@Suite struct BatchByThreadCompilerTests {
    typealias S = CompilerTestSupport

    static func group(by: String?, body: String, threadId: String? = nil) -> String {
        var text = "batching:\n  summary:\n    window: 30s\n    members: [daily-reminder]\n"
        if let by { text += "    by: \(by)\n" }
        text += "    copy: { body: \"\(body)\" }\n"
        if let threadId { text += "    threadId: \"\(threadId)\"\n" }
        return text
    }

    @Test func byThreadCompiles() throws {
        let result = S.validateMinimal(plus: Self.group(by: "threadId", body: "{count} in {thread}: {first}", threadId: "grouped.{thread}"))
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.sorted.map(\.description))")
        let group = try #require(result.bundle?.batching["summary"])
        #expect(group.byThread)
        #expect(group.threadId?.placeholders == ["thread"])
    }

    @Test func withoutByNoThreadAndNoThreadPlaceholder() throws {
        let plain = S.validateMinimal(plus: Self.group(by: nil, body: "{count} reminders"))
        #expect(plain.bundle?.batching["summary"]?.byThread == false)
        // `{thread}` names the members' thread, which only a group by thread has.
        #expect(S.codes(S.validateMinimal(plus: Self.group(by: nil, body: "{count} in {thread}"))) == ["H0421"])
    }

    @Test(arguments: ["subject", "type", "threadID"])
    func otherGroupingsAreRefused(_ by: String) {
        #expect(S.codes(S.validateMinimal(plus: Self.group(by: by, body: "{count} reminders"))).contains("H0288"))
    }
}
