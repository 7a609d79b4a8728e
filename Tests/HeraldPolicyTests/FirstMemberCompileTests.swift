@testable import HeraldPolicy
import HeraldSyntax
import Testing

/// The compiler's side of batch copy that names the first member (issue 18, P11 part 2):
/// which types a group holds, the types of `{first.<param>}`, and what the model keeps for the
/// engine. The one-mistake bundles of H0297, H0298, H0329 and H0330 are golden fixtures.
@Suite struct FirstMemberCompileTests {
    typealias C = CompilerTestSupport

    static func bundle(types: String, policy: String) -> String {
        """
        app: { name: Demo, scheme: demo }
        channels:
          push: { kind: push }
        categories:
          contacts: { title: Contacts }
          notes: { title: Notes }
        routes:
          home: { url: "demo://home" }
          contact: { url: "demo://contacts/{id}", params: { id: string } }
        types:
        \(types)
        \(policy)
        """
    }

    static let twoTypes = """
      updated:
        category: contacts
        channels: [push]
        params: { id: string, name: string, changes: int }
        copy: { body: "{name} changed." }
      merged:
        category: contacts
        channels: [push]
        params: { id: string, name: string? }
        copy: { body: "Merged." }
      note:
        category: notes
        channels: [push]
        params: { id: string }
        copy: { body: "Note." }
    """

    /// `note` with a cap of its own that overflows into `news`.
    static let noteOverflowing = twoTypes.replacingOccurrences(of: "    copy: { body: \"Note.\" }", with: """
        copy: { body: "Note." }
        caps:
          - { id: notes-daily, max: 1, per: day, over: batch(news) }
    """)

    @Test("a type whose own cap overflows into the group is held: it must declare the param")
    func typeCapHolders() throws {
        let result = C.validate(Self.bundle(types: Self.noteOverflowing, policy: """
        batching:
          news:
            window: 30s
            members: [updated, merged]
            copy: { body: "{first.name} and {others, plural, one {# other} other {# others}} ({first.id})." }
            link: { route: contact, id: "{first.id}" }
          plain:
            window: 30s
            members: [note]
            copy: { body: "{count} notes." }
        """))
        // `note` reaches `news` through its own cap: it lacks `name`.
        #expect(C.codes(result) == ["H0297"])
        #expect(result.diagnostics.sorted.first?.message.contains("`note`") == true)
    }

    @Test("the model keeps the named params and the types that may carry them: members and a type capped into it")
    func modelKeepsParamsAndHolders() throws {
        let result = C.validate(Self.bundle(types: Self.noteOverflowing, policy: """
        batching:
          news:
            window: 30s
            members: [updated, merged]
            copy: { body: "{first.id}: {others} more." }
        """))
        #expect(C.codes(result) == [])
        let group = try #require(result.bundle?.batching["news"])
        #expect(group.firstParams == ["id"])
        #expect(group.firstHolders == ["updated", "merged", "note"])
    }

    @Test("a policy cap that overflows into the group makes every type it applies to a holder")
    func policyCapHolders() throws {
        let result = C.validate(Self.bundle(types: Self.twoTypes, policy: """
        caps:
          - { id: contacts-daily, scope: category, match: [contacts], max: 2, per: day, over: batch(news) }
        batching:
          news:
            window: 30s
            members: [updated]
            copy: { body: "{first.changes, plural, one {# change} other {# changes}} and {others} more." }
        """))
        // `merged` reaches `news` through the policy cap and declares no `changes`.
        #expect(C.codes(result) == ["H0297"])
        #expect(result.diagnostics.sorted.first?.message.contains("`merged`") == true)
    }

    @Test("optional in one held type: optional in the copy, refused by a required route param (H0268)")
    func optionalInOneIsOptional() throws {
        let members = """
        batching:
          news:
            window: 30s
            members: [updated, merged]
            copy: { body: "{first.name} and {others} more." }
            link: { route: contact, id: "{first.name}" }
        """
        let result = C.validate(Self.bundle(types: Self.twoTypes, policy: members))
        #expect(C.codes(result) == ["H0268"])
        // Without the link it compiles, and `{others}` is an int, usable in `plural`.
        let ok = C.validate(Self.bundle(types: Self.twoTypes, policy: """
        batching:
          news:
            window: 30s
            members: [updated, merged]
            copy: { body: "{first.name} and {others, plural, one {# other} other {# others}}." }
        """))
        #expect(C.codes(ok) == [])
        #expect(ok.bundle?.batching["news"]?.firstParams == ["name"])
    }

    @Test("an unknown `first.` name is H0421 with did-you-mean; `{first.…}` in a group's threadId too")
    func unknownFirstNames() throws {
        let result = C.validate(Self.bundle(types: Self.twoTypes, policy: """
        batching:
          news:
            window: 30s
            members: [updated, merged]
            copy: { body: "{first.nmae} and {others} more." }
            threadId: "contacts.{first.id}"
        """))
        #expect(C.codes(result) == ["H0421", "H0421"])
        #expect(result.diagnostics.sorted.first?.suggestion == "first.name")
    }

    @Test("a group without `{first.…}` keeps no holders: its types carry nothing")
    func noFirstNoHolders() throws {
        let result = C.validate(Self.bundle(types: Self.twoTypes, policy: """
        batching:
          news:
            window: 30s
            members: [updated, merged]
            copy: { body: "{count} changes ({first})." }
        """))
        #expect(C.codes(result) == [])
        #expect(result.bundle?.batching["news"]?.firstHolders == [])
    }

    @Test("a dot joins a placeholder's name only before a letter: `{first.name}` is one name, `{name.}` is not")
    func dottedNames() throws {
        func codes(_ text: String) -> [String] {
            var diagnostics = Diagnostics()
            let scalar = YAMLScalar(value: text, style: .plain, positions: ScalarPositions(start: SourceLocation(path: "t.yaml", line: 1, column: 1, offset: 0)))
            let span = SourceSpan(start: SourceLocation(path: "t.yaml", line: 1, column: 1), end: SourceLocation(path: "t.yaml", line: 1, column: 1 + text.count))
            _ = MessageTemplate.compile(scalar, span: span, allowed: ["first.name": .string, "name": .string], diagnostics: &diagnostics)
            return diagnostics.items.map { "\($0.code.id):\($0.span?.start.column ?? 0)" }
        }
        #expect(codes("{first.name} said hi") == [])
        #expect(codes("Hi {name. Ready?") == ["H0420:9"])
        #expect(codes("{first.nam}") == ["H0421:2"])
    }
}
