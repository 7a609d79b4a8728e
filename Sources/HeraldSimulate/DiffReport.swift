/// `herald diff --format markdown`: a policy change for a pull request's reviewer, in the
/// order they read it: which entries changed and where, what the scenario's users get before
/// and after, and the policy tests' result on both sides (docs/ci.md).
public struct DiffReport: Sendable {
    /// The policy tests of one side (`invalid`: a test file has errors).
    public struct Tests: Sendable {
        public var passed: Int
        public var failed: Int
        public var invalid: Bool
        /// The failing tests: each one's name and `file:line`.
        public var failures: [(name: String, location: String)]
        public init(passed: Int, failed: Int, invalid: Bool, failures: [(name: String, location: String)] = []) {
            self.passed = passed
            self.failed = failed
            self.invalid = invalid
            self.failures = failures
        }
        var text: String { "\(passed) passed, \(failed) failed" + (invalid ? " (a test file is invalid)" : "") }
    }

    /// How each side is named: a directory, or a directory at a revision.
    public var before: String
    public var after: String
    public var changes: PolicyChanges
    public var simulation: SimulationDiff
    public var tests: (before: Tests, after: Tests)

    public init(before: String, after: String, changes: PolicyChanges, simulation: SimulationDiff, tests: (before: Tests, after: Tests)) {
        self.before = before
        self.after = after
        self.changes = changes
        self.simulation = simulation
        self.tests = tests
    }

    /// Users listed under "most changed".
    public static let usersListed = 5

    public func markdown() -> String {
        let (a, b) = (simulation.a, simulation.b)
        var out = "### Herald: \(before) → \(after)\n\n"

        out += "**Changed entries**"
        if changes.entries.isEmpty {
            out += ": none (the files differ in layout or comments only, or not at all)\n\n"
        } else {
            out += " (\(changes.entries.count))\n\n| change | entry | where |\n|---|---|---|\n"
            for entry in changes.entries {
                out += "| \(entry.kind.rawValue) | `\(Self.cell(entry.key))` | `\(Self.cell(entry.path)):\(entry.line)` |\n"
            }
            out += "\n"
        }

        out += "**Simulated impact**: scenario `\(Self.cell(a.scenario))`, \(a.users) users × \(a.days) days, seed \(a.seed)\n\n"
        out += "| deliveries per user per day | before | after |\n|---|---:|---:|\n"
        out += "| p50 | \(a.percentile(50)) | \(b.percentile(50)) |\n"
        out += "| p95 | \(a.percentile(95)) | \(b.percentile(95)) |\n"
        out += "| max | \(a.maxPerUserDay) | \(b.maxPerUserDay) |\n"
        out += "| mean | \(SimulationResult.hundredths(a.meanPerUserDayHundredths)) | \(SimulationResult.hundredths(b.meanPerUserDayHundredths)) |\n\n"
        // The per-user-day figures are the table above.
        let perUserDay: Set = ["mean per user per day (×100)", "p50 per user per day", "p95 per user per day", "max per user per day"]
        out += Self.table("Deliveries and holds", simulation.figures.filter { !perUserDay.contains($0.name) })
        let suppressions = simulation.suppressions
        let moved = suppressions.filter { $0.delta != 0 }
        out += Self.table("Suppressions whose counts moved", moved,
                          unchanged: suppressions.count - moved.count, of: "suppression reasons")
        out += Self.table("Caps whose counts moved", simulation.caps)
        out += Self.table("Rules whose counts moved", simulation.rules)

        let users = simulation.users(limit: Self.usersListed)
        out += "**Users whose week changed**: \(simulation.usersChanged) of \(min(a.users, b.users))"
        if users.isEmpty {
            out += "\n\n"
        } else {
            out += "; most changed (deliveries each day)\n\n| user | before | after |\n|---|---|---|\n"
            for user in users {
                out += "| `\(Self.cell(user.user))` | \(user.a.map(String.init).joined(separator: " ")) | \(user.b.map(String.init).joined(separator: " ")) |\n"
            }
            out += "\n"
        }
        out += "**Policy tests**: before \(tests.before.text); after \(tests.after.text)\n"
        let failingBefore = Set(tests.before.failures.map(\.name))
        let broken = tests.after.failures.filter { !failingBefore.contains($0.name) }
        if !broken.isEmpty {
            out += "\nFailing after the change, not before:\n\n"
            for failure in broken { out += "- \(failure.name) (`\(failure.location)`)\n" }
        }
        return out
    }

    /// A table of counts with their change, or a line saying there is nothing to show.
    static func table(_ title: String, _ rows: [SimulationDiff.Change], unchanged: Int = 0, of what: String = "") -> String {
        let rest = unchanged == 0 ? "" : rows.isEmpty ? " (\(unchanged) \(what), all unchanged)" : " (\(unchanged) other \(what) unchanged)"
        guard !rows.isEmpty else { return "**\(title)**: none\(rest)\n\n" }
        var out = "**\(title)**\(rest)\n\n| | before | after | Δ |\n|---|---:|---:|---:|\n"
        for row in rows {
            out += "| \(cell(row.name)) | \(row.a) | \(row.b) | \(SimulationDiff.signed(row.delta)) |\n"
        }
        return out + "\n"
    }

    /// Text safe inside a table cell.
    static func cell(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "|": out += "\\|"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
