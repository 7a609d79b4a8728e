/// A decision's trace, written for people: one line per stage with its outcome, then the
/// rule and the YAML line that spoke.
///
/// ```
/// N-MAINT-DUE-TODAY → schedule (reminder_time) at 2026-03-08T19:00:00+01:00
///   request      pass
///   eligibility  pass     N-MAINT-DUE-TODAY.eligible  catalog/app/types.yaml:33:15
///                         33 |     eligible: "user.account && user.tier in ['free', 'pro', 'trial']"
///   ...
/// decided by N-MAINT-DUE-TODAY.timing at catalog/app/types.yaml:35:7
/// ```
public enum Explanation {
    /// The text of one line of a source file (1-based), or nil when unknown.
    public typealias SourceLines = (_ path: String, _ line: Int) -> String?

    /// Renders the traces of a trigger's decisions (`Engine.decideAll`): one decision as
    /// `text(_:sourceLine:)`; several (a `delivery: all` type, one per channel) one block each,
    /// in channel order, separated by a blank line, each head naming its channel.
    public static func text(_ decisions: [Decision], sourceLine: SourceLines) -> String {
        guard decisions.count > 1 else { return decisions.first.map { text($0, sourceLine: sourceLine) } ?? "" }
        return decisions.map { text($0, sourceLine: sourceLine, namingChannel: true) }.joined(separator: "\n\n")
    }

    /// Renders `decision`'s trace. `sourceLine` supplies the YAML text of cited lines;
    /// `namingChannel` names the channel in the head even when the decision is a suppression.
    public static func text(_ decision: Decision, sourceLine: SourceLines, namingChannel: Bool = false) -> String {
        var out: [String] = []
        var head = "\(decision.type) → \(decision.action.rawValue) (\(decision.reason))"
        if decision.action != .suppress, let at = decision.deliverAt {
            head += " at " + ContractTime.format(at, offsetSeconds: decision.utcOffset)
        }
        if let channel = decision.channel, decision.action != .suppress || namingChannel { head += " on \(channel)" }
        if let fallback = decision.fallback { head += " (fallback \(fallback))" }
        out.append(head)
        let width = decision.trace.map(\.stage.rawValue.count).max() ?? 0
        for step in decision.trace {
            let stage = step.stage.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            var line = "  \(stage)\(step.outcome.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))"
            if let rule = step.rule { line += rule }
            if let source = step.source { line += "  \(source)" }
            out.append(line.trimmingTrailingSpaces())
            let indent = String(repeating: " ", count: width + 13)
            if let detail = step.detail { out.append(indent + detail) }
            if let source = step.source, let quoted = quote(source, sourceLine) { out.append(indent + quoted) }
        }
        if let batch = decision.batch {
            out.append("batch \(batch.key) (group \(batch.group)) flushes at \(ContractTime.format(batch.flushAt))")
        }
        if let rule = decision.rule {
            out.append("decided by \(rule.id) at \(rule.source)")
            if let quoted = quote(rule.source, sourceLine) { out.append("  " + quoted) }
        }
        if let cap = decision.cap { out.append("cap: \(cap)") }
        return out.joined(separator: "\n")
    }

    /// The most characters of a cited line `quote` shows, as in diagnostic snippets.
    static let quoteWidth = 180

    /// `33 | <line text>` for a `path:line:col` citation. A line longer than `quoteWidth` is
    /// shown as a window around the cited column, cut with `…`.
    package static func quote(_ citation: String, _ sourceLine: SourceLines) -> String? {
        let parts = citation.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]) else { return nil }
        let column = Int(parts[parts.count - 1]) ?? 1
        let path = parts.dropLast(2).joined(separator: ":")
        guard let text = sourceLine(path, line) else { return nil }
        return "\(line) | \(window(text, around: column))"
    }

    /// `text` whole when it fits in `quoteWidth` characters, else the `quoteWidth - 2`
    /// characters around the 1-based `column`, with `…` where text was cut.
    static func window(_ text: String, around column: Int) -> String {
        let characters = Array(text)
        guard characters.count > quoteWidth else { return text }
        let budget = quoteWidth - 2
        let caret = min(max(column - 1, 0), characters.count - 1)
        let start = max(0, min(caret - budget / 3, characters.count - budget))
        let end = min(characters.count, start + budget)
        return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }

    func padding(toLength length: Int, withPad pad: String, startingAt: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
