/// The longest text a copy template can render, in characters, estimated from its source:
/// literal text counts as written, a `{name}` placeholder as `placeholderWidth` characters, a
/// `plural` or `select` as its longest branch, `#` in a plural branch as `numberWidth`.
/// An estimate on purpose: the real values are only known at decision time.
enum CopyLength {
    static let placeholderWidth = 12
    static let numberWidth = 2

    static func longest(_ source: String) -> Int {
        var scanner = Scanner(Array(source.unicodeScalars))
        return scanner.message(inPlural: false, until: nil)
    }

    private struct Scanner {
        let s: [Unicode.Scalar]
        var i = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        /// Length of a message up to an unmatched `}` (consumed by the caller) or the end.
        mutating func message(inPlural: Bool, until close: Unicode.Scalar?) -> Int {
            var length = 0
            while i < s.count {
                let c = s[i]
                if c == "}" { return length }
                if c == "'" {
                    // ICU quoting: '' is a quote; '{...' quotes up to the next '.
                    if i + 1 < s.count, s[i + 1] == "'" { length += 1; i += 2; continue }
                    if i + 1 < s.count, s[i + 1] == "{" || s[i + 1] == "}" || s[i + 1] == "#" {
                        i += 1
                        while i < s.count, s[i] != "'" { length += 1; i += 1 }
                        i += 1
                        continue
                    }
                    length += 1; i += 1; continue
                }
                if c == "#" && inPlural { length += CopyLength.numberWidth; i += 1; continue }
                if c == "{" { i += 1; length += argument(); continue }
                length += 1
                i += 1
            }
            return length
        }

        /// After `{`: `name}` or `name, plural|select, branches}`.
        mutating func argument() -> Int {
            var parts: [String] = []
            var current = ""
            while i < s.count, s[i] != "}" {
                if s[i] == "," {
                    parts.append(current.trimmedForCopyLength)
                    current = ""
                    i += 1
                    if parts.count == 2 { break }
                    continue
                }
                current.unicodeScalars.append(s[i])
                i += 1
            }
            if parts.count < 2 {
                if i < s.count { i += 1 } // `}`
                return CopyLength.placeholderWidth
            }
            let isPlural = parts[1] == "plural"
            var best = 0
            // Branches: selector {message} ...
            while i < s.count {
                while i < s.count, s[i] == " " || s[i] == "\n" || s[i] == "\t" { i += 1 }
                if i >= s.count { break }
                if s[i] == "}" { i += 1; break }
                while i < s.count, s[i] != "{", s[i] != "}" { i += 1 } // selector
                guard i < s.count, s[i] == "{" else { continue }
                i += 1
                best = max(best, message(inPlural: isPlural, until: "}"))
                if i < s.count { i += 1 }
            }
            return best
        }
    }
}

private extension String {
    var trimmedForCopyLength: String {
        var scalars = Substring(self).unicodeScalars[...]
        while let f = scalars.first, f == " " { scalars = scalars.dropFirst() }
        while let l = scalars.last, l == " " { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
