import HeraldSimulate
import HeraldSyntax
import Testing

/// `PolicyChanges`: entries compared as YAML trees, each named with its section and placed at
/// its line.
@Suite struct PolicyChangesTests {
    static func files(_ text: String, path: String = "policies/x/policy.yaml") -> [String: SourceFile] {
        [path: SourceFile(path: path, text: text)]
    }

    @Test func layoutAndCommentsAreNoChange() {
        let before = Self.files("defaults:\n  maxPerDay: 2\ncaps:\n  daily: { max: 3, per: day }\n")
        let after = Self.files("# a comment\ndefaults:\n    maxPerDay: 2   # same\ncaps:\n  daily:\n    max: 3\n    per: day\n")
        #expect(PolicyChanges(before: before, after: after).entries.isEmpty)
    }

    @Test func addedRemovedAndChangedEntriesWithTheirLines() {
        let before = Self.files("defaults:\n  maxPerDay: 2\ncaps:\n  daily: { max: 3 }\n  weekly: { max: 9 }\nname: a\n")
        let after = Self.files("name: b\ndefaults:\n  maxPerDay: 3\ncaps:\n  daily: { max: 3 }\n  hourly: { max: 1 }\n")
        let entries = PolicyChanges(before: before, after: after).entries
        #expect(entries.map { "\($0.kind.rawValue) \($0.key) \($0.line)" } == [
            "changed name 1", "changed defaults.maxPerDay 3", "added caps.hourly 6", "removed caps.weekly 5",
        ])
    }

    @Test func aFileOnOneSideOnly() {
        let entries = PolicyChanges(before: [:], after: Self.files("types:\n  t: { category: c }\n", path: "catalog/x/types.yaml")).entries
        #expect(entries.map { "\($0.kind.rawValue) \($0.key) \($0.path):\($0.line)" } == ["added types.t catalog/x/types.yaml:2"])
    }
}
