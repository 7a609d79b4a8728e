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

@Suite("Suggestions: transpositions")
struct SuggestionTranspositionTests {
    @Test func swappedNeighboursAreOneEdit() {
        #expect(Suggestions.editDistance("nmae", "name") == 1)
        #expect(Suggestions.editDistance("puhs", "push") == 1)
        #expect(Suggestions.closest(to: "puhs", in: ["push", "email", "local"]) == "push")
        #expect(Suggestions.editDistance("abc", "abc") == 0)
        #expect(Suggestions.editDistance("ca", "abc") == 3)
    }
}
