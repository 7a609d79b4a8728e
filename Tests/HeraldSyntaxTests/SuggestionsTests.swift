import Testing
@testable import HeraldSyntax

@Suite struct SuggestionsTests {
    @Test func closestNameWithinThreshold() {
        #expect(Suggestions.closest(to: "maintenence", in: ["maintenance", "practice"]) == "maintenance")
        #expect(Suggestions.closest(to: "xyz", in: ["maintenance", "practice"]) == nil)
        #expect(Suggestions.closest(to: "quiet_hours", in: ["quietHours"]) == "quietHours")
    }

    @Test func editDistance() {
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
        #expect(Suggestions.editDistance("", "abc") == 3)
    }

    @Test func sourceFileLocations() {
        let file = SourceFile(path: "a.yaml", text: "ab\ncdé\r\nx")
        #expect(file.location(ofOffset: 0) == SourceLocation(path: "a.yaml", line: 1, column: 1, offset: 0))
        #expect(file.location(ofOffset: 4).line == 2)
        #expect(file.location(ofOffset: 4).column == 2)
        #expect(file.lineText(2) == "cdé")
        #expect(file.location(ofOffset: 10).line == 3)
        #expect(file.offset(line: 2, column: 3) == 5)
    }
}
