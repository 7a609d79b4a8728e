public import HeraldSyntax
public import HeraldContract
public import HeraldEngine

/// One scenario of a policy test file (`policies/<app>/tests/*.yaml`):
///
/// ```yaml
/// tests:
///   - name: AT-CH27-05 a trigger in quiet hours waits for 07:00
///     given:                       # request fields shared by every step
///       user: { id: u1, account: true, tier: free }
///       prefs: { timezone: America/New_York }
///       state: { maintenance: { dueToday: 2, overdue: 0 } }
///     when:                        # one trigger, or a list of triggers in time order
///       type: N-MAINT-DUE-TODAY
///       at: "2026-03-10T23:00:00-04:00"
///       params: { count: 2 }
///     then:                        # what the decision must say (a list when `when` is)
///       action: schedule
///       reason: quiet_hours
///       localTime: "07:00"
/// ```
///
/// `given` and `when` use the decision request's own field names (docs/decisions.md); `then`
/// uses the decision's. See docs/testing.md.
public struct PolicyTestCase: Sendable {
    public var name: String
    /// The test's `name:` value, where failures point.
    public var span: SourceSpan
    /// Request fields shared by every step (`history` is the starting ledger).
    public var given: JSON
    public var steps: [Step]
    /// The errors that make this entry invalid (an unknown key, a malformed instant, a
    /// duplicate name, …), in file order. An invalid test does not run; it counts as failed and
    /// is reported in its place with these diagnostics.
    public var problems: [Diagnostic]

    /// Whether the entry was read without errors and can run.
    public var isValid: Bool { problems.isEmpty }

    public struct Step: Sendable {
        /// What a step asks the engine (docs/testing.md).
        public enum Kind: Sendable, Equatable {
            /// One trigger: `Engine.decide`.
            case trigger
            /// `when: { prompt: true, … }`: `Engine.prompt`; `then` checks the prompt decision.
            case prompt
            /// `when: { plan: [candidates…], … }`: `Engine.plan`; `then` checks `decisions`,
            /// `deliveries` and `batches`.
            case plan
            /// `when: { reconcile: [candidates…], pending?: […], … }`: `Engine.reconcile`; `then`
            /// also checks the keys to `add`, `keep`, `update` and `cancel`.
            case reconcile
            /// `when: { events: […] }` alone: only updates the fed history; `then` is `{}`.
            case events
        }

        /// The trigger's request fields (`type`, `at`, `params`, `subject`, and any override);
        /// for plan and reconcile steps, `plan`/`reconcile`, `horizon`, `pending` and overrides.
        public var when: JSON
        public var expectations: [Expectation]
        public var span: SourceSpan
        public var kind: Kind
        /// What happened to earlier notifications before this step (`events:`), in order.
        public var events: [Event]

        /// A prompt step (`when: { prompt: true, … }`): asks `Engine.prompt` instead of `decide`,
        /// and `then` checks the prompt decision (`prompt`, `reason`, `rule`).
        public var isPrompt: Bool { kind == .prompt }

        public init(when: JSON, expectations: [Expectation], span: SourceSpan, isPrompt: Bool = false,
                    kind: Kind? = nil, events: [Event] = [])
        {
            self.when = when
            self.expectations = expectations
            self.span = span
            self.kind = kind ?? (isPrompt ? .prompt : .trigger)
            self.events = events
        }
    }

    /// `{ key, status, at, type? }` in a step's `events:`: the notification with `key` was
    /// delivered, opened, dismissed or cancelled at `at`.
    public struct Event: Sendable, Equatable {
        public var key: String
        public var status: HistoryEntry.Status
        public var at: Int
        /// Needed only when no earlier step left a notification with this key.
        public var type: String?
        public var span: SourceSpan

        public init(key: String, status: HistoryEntry.Status, at: Int, type: String?, span: SourceSpan) {
            self.key = key
            self.status = status
            self.at = at
            self.type = type
            self.span = span
        }
    }

    public init(name: String, span: SourceSpan, given: JSON, steps: [Step], problems: [Diagnostic] = []) {
        self.name = name
        self.span = span
        self.given = given
        self.steps = steps
        self.problems = problems
    }
}

/// One line of a `then:` block: the decision field it checks and the value expected.
public struct Expectation: Sendable, Equatable {
    public indirect enum Check: Sendable, Equatable {
        /// The decision JSON at `path` equals the value (instants compare as instants).
        case equals(path: [String])
        /// The `HH:MM` of `localDeliverAt`.
        case localTime
        /// The `YYYY-MM-DD` of `localDeliverAt`.
        case localDate
        /// `localTime: { from: "07:00", to: "22:00" }`: the `HH:MM` of `localDeliverAt` lies in
        /// the range, both ends included (minutes of the day; `from > to` wraps past midnight).
        case localTimeRange(from: Int, to: Int)
        /// `not: { … }`: the inner check must fail (the field differs, or is absent).
        case negated(Check)
        /// `batch: { sameAs: n }`: the batch key equals step n's (0-based index here).
        case sameBatch(step: Int)
        /// `decisions`/`deliveries`/`batches: [ {…}, … ]` of a plan or reconcile step (or a
        /// trigger's `decisions`/`batches`): as many entries as blocks, each block checked
        /// against the entry `match` finds for it.
        case entries(field: String, blocks: [[Expectation]], match: EntryMatch = .position)
        /// `add`/`keep`/`update`/`cancel: [key, …]` of a reconcile step: the same keys, in any order.
        case keys(field: String)
    }

    /// How an entry block of `decisions`/`deliveries`/`batches` finds its entry.
    public enum EntryMatch: Sendable, Equatable {
        /// The entry in the block's position.
        case position
        /// The first entry not yet matched whose `key` (idempotency or batch key) is the block's.
        case key
        /// The first entry not yet matched on the block's `channel`.
        case channel
    }

    /// As written in the test (`reason`, `notification.body`, `localTime`).
    public var key: String
    public var check: Check
    public var expected: JSON
    public var span: SourceSpan
    /// `then: { channels: { <channel>: { … } } }`: checks only that channel's decision of a
    /// `delivery: all` type; nil checks every decision of the step.
    public var channel: String?

    public init(key: String, check: Check, expected: JSON, span: SourceSpan, channel: String? = nil) {
        self.key = key
        self.check = check
        self.expected = expected
        self.span = span
        self.channel = channel
    }
}

/// Every test of one bundle, with the problems found reading them.
public struct PolicyTestSuite: Sendable {
    public var directory: String
    /// Every test entry in file order, invalid ones included (see `PolicyTestCase.problems`);
    /// a test file that could not be read into entries at all is one invalid entry.
    public var cases: [PolicyTestCase]
    /// Everything found reading the test files: the problems of every entry, and warnings
    /// (`H0606` no tests) that belong to no entry.
    public var diagnostics: Diagnostics
    /// The test files read, by diagnostic path.
    public var sources: [String: SourceFile]

    public init(directory: String, cases: [PolicyTestCase], diagnostics: Diagnostics, sources: [String: SourceFile]) {
        self.directory = directory
        self.cases = cases
        self.diagnostics = diagnostics
        self.sources = sources
    }
}
