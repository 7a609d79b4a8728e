import Testing
@testable import HeraldPolicy

@Suite("Lint helpers")
struct LintUnitTests {
    @Test func copyLengthCountsLiteralText() {
        #expect(CopyLength.longest("Time to practice.") == 17)
        #expect(CopyLength.longest("") == 0)
    }

    @Test func copyLengthCountsPlaceholdersAtAFixedWidth() {
        #expect(CopyLength.longest("Hi {name}!") == 4 + CopyLength.placeholderWidth)
    }

    @Test func copyLengthTakesTheLongestPluralBranch() {
        let text = "Due: {count, plural, one {# item} other {# items waiting}}."
        #expect(CopyLength.longest(text) == 5 + (CopyLength.numberWidth + 14) + 1)
    }

    @Test func copyLengthHandlesSelectAndNesting() {
        let text = "{kind, select, up {Up {n, plural, one {# point} other {# points}}} other {Changed}}"
        #expect(CopyLength.longest(text) == 3 + CopyLength.numberWidth + 7)
    }

    @Test func copyLengthHonoursQuotes() {
        #expect(CopyLength.longest("It''s '{literal}'") == 14)
    }

    @Test func copyLengthNeverTrapsOnBrokenText() {
        for text in ["{", "}", "{a,", "{a, plural, one {", "'", "{a, select, x {y} other {", "#{}{}"] {
            _ = CopyLength.longest(text)
        }
    }

    @Test func bannedWordsMatchWholeWordsOnly() {
        func find(_ word: String, _ text: String) -> Int? {
            Lints.wholeWordOffset(of: Array(word.unicodeScalars), in: Array(text.lowercased().unicodeScalars))
        }
        #expect(find("lazy", "Don't be lazy today") == 9)
        #expect(find("lazy", "Lazy start") == 0)
        #expect(find("lazy", "lazybones") == nil)
        #expect(find("you failed", "Oops, you failed.") == 6)
        #expect(find("cure", "secure your account") == nil)
        #expect(find("cure", "a cure!") == 2)
    }

    @Test func normalizedIgnoresSpacing() {
        #expect(Lints.normalized("a == 1 &&  b") == Lints.normalized("a==1&&b"))
    }
}
