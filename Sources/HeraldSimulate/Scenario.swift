// A closed family: a simulation scenario (`policies/<app>/scenarios/*.yaml`, docs/simulate.md)
// and its parts, values read only as part of `Scenario`; kept together so the format reads in
// one place.
public import HeraldSyntax
public import HeraldContract
internal import HeraldEngine

/// A typical stretch of an app's life: who the users are, what triggers fire, how state moves
/// over the days and how users react. Read by `ScenarioLoader`, run by `Simulator`.
public struct Scenario: Sendable {
    public var name: String
    public var description: String?
    public var path: String
    /// How many users to simulate.
    public var users: Int
    /// How many local days, starting at `start` in each user's own zone.
    public var days: Int
    /// The first simulated local date (days since 1970-01-01).
    public var start: Int
    /// The seed when the command line gives none.
    public var seed: UInt64
    /// How each user is drawn.
    public var population: Population
    public var triggers: [Trigger]
    /// The app's daily planning run, if it has one.
    public var plan: DailyPlan?
    /// State that changes over the days.
    public var changes: [Change]
    public var behaviour: Behaviour

    /// A user drawn from the population: each leaf may be a `pick:` among weighted values.
    public struct Population: Sendable {
        public var timezone: ValueSpec
        public var permission: ValueSpec
        public var prefs: ValueSpec
        public var user: ValueSpec
        public var state: ValueSpec
        /// State fields drawn again at the start of every day (`daily:`), merged over `state`.
        public var daily: ValueSpec
    }

    /// One kind of trigger: a type, when it fires and its params.
    public struct Trigger: Sendable {
        public enum Timing: Sendable {
            /// Every day at these local times (minutes after midnight).
            case at([Int])
            /// `rate` triggers a day on average (Poisson), at uniform local minutes in `[from, to)`.
            case perDay(rate: Double, from: Int, to: Int)
            /// These instants, once each.
            case times([Int])
        }
        public var type: String
        public var timing: Timing
        /// Per occurrence of an `at` time: the chance it fires at all.
        public var probability: Double
        /// ISO weekdays (1 = Monday) it fires on; empty: every day.
        public var weekdays: Set<Int>
        public var params: ValueSpec
        public var subject: ValueSpec?
        public var span: SourceSpan
    }

    /// The app's daily planning: one `plan` of these candidates per user per day.
    public struct DailyPlan: Sendable {
        public struct Candidate: Sendable {
            public var type: String
            /// Local time of the candidate's trigger, minutes after midnight.
            public var at: Int
            public var params: ValueSpec
            public var span: SourceSpan
        }
        /// Local time the plan runs, minutes after midnight.
        public var at: Int
        public var horizon: Int
        public var candidates: [Candidate]
        public var span: SourceSpan
    }

    /// From local day `day` (1-based) on, a `share` of the users get these values merged in.
    public struct Change: Sendable {
        public var day: Int
        public var share: Double
        public var prefs: ValueSpec?
        public var user: ValueSpec?
        public var state: ValueSpec?
        public var span: SourceSpan
    }

    /// How users react to a delivered notification: open, else dismiss, else leave it.
    public struct Behaviour: Sendable {
        public struct Reaction: Sendable {
            public var probability: Double
            /// Seconds after delivery, uniform in the range.
            public var delay: ClosedRange<Int>
        }
        public var open: Reaction?
        public var dismiss: Reaction?
        /// Per-category reactions replacing the defaults.
        public var categories: [String: (open: Reaction?, dismiss: Reaction?)]
    }
}

/// A value in a scenario: a literal, a weighted pick, or a generated value.
public indirect enum ValueSpec: Sendable {
    case literal(JSON)
    case object([(String, ValueSpec)])
    case array([ValueSpec])
    /// Weighted values; `cumulative` holds the running sums of the weights, normalised to 1.
    case pick([ValueSpec], cumulative: [Double])
    /// A fresh string per draw: `prefix-<user>-<n>`.
    case unique(prefix: String)
    /// An integer uniform in the closed range.
    case range(ClosedRange<Int>)
    /// The trigger instant plus this many seconds, as RFC 3339.
    case instant(offset: Int)

    public static let empty = ValueSpec.object([])
}
