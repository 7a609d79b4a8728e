/// "Did you mean" help: the known name closest to a misspelt one.
public enum Suggestions {
    /// The candidate with the smallest edit distance to `name`, if that distance is small
    /// relative to the name's length (at most a third of it, and at least 1 allowed), or a
    /// candidate equal to it ignoring case and `_`/`-`.
    public static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let folded = fold(name)
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            if fold(candidate) == folded { return candidate }
            let distance = editDistance(name, candidate)
            if best == nil || distance < best!.1 || (distance == best!.1 && candidate < best!.0) {
                best = (candidate, distance)
            }
        }
        guard let (candidate, distance) = best else { return nil }
        let limit = max(1, min(name.count, candidate.count) / 3)
        return distance <= limit ? candidate : nil
    }

    private static func fold(_ s: String) -> String {
        String(s.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// Edit distance over Unicode scalars where an insertion, a deletion, a substitution or a
    /// swap of two neighbours each cost 1 (optimal string alignment), so `nmae` is one edit
    /// from `name`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var before = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[y.count]
    }
}
