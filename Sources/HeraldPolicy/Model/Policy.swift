// A closed family: the sections of a compiled policy (`defaults`, `quietHours`, `batching`,
// `digests`, `priorities`, `dst`, `content`, `dedupe`), each a small value read only as part
// of `PolicyBundle`; kept together so the policy's model reads in one place.
public import HeraldSyntax

/// A local wall-clock window `[start, end)`, in seconds since midnight; may cross midnight.
public struct QuietHoursWindow: Sendable, Hashable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

/// `defaults:` — the user's preferences when a request leaves them out.
public struct Defaults: Sendable, Hashable {
    public var timezone: String
    /// Seconds since local midnight.
    public var reminderTime: Int
    /// nil: no quiet hours.
    public var quietHours: QuietHoursWindow?
    /// 1 = Monday … 7 = Sunday.
    public var trainingDays: [Int]
    /// nil: no soft daily limit.
    public var maxPerDay: Int?
    public var pausedAll: Bool
    /// The section's mapping; nil when the policy has no `defaults`.
    public var span: SourceSpan?
    /// Where each key the section declares is written (the key, not its value), by key: a
    /// decision's trace cites `pausedAll` and `quietHours`.
    public var keySpans: [String: SourceSpan]

    public init(timezone: String = "UTC", reminderTime: Int = 19 * 3600, quietHours: QuietHoursWindow? = nil,
                trainingDays: [Int] = [], maxPerDay: Int? = nil, pausedAll: Bool = false, span: SourceSpan? = nil,
                keySpans: [String: SourceSpan] = [:]) {
        self.timezone = timezone
        self.reminderTime = reminderTime
        self.quietHours = quietHours
        self.trainingDays = trainingDays
        self.maxPerDay = maxPerDay
        self.pausedAll = pausedAll
        self.span = span
        self.keySpans = keySpans
    }
}

/// `quietHours:` — what happens inside the user's quiet hours.
public struct QuietHoursPolicy: Sendable, Hashable {
    /// `defer`, `suppress` or `passive` (`bypass` is per type).
    public var during: QuietHoursTreatment
    /// Type or category names that ignore quiet hours.
    public var bypass: [String]
    public var span: SourceSpan?

    public init(during: QuietHoursTreatment = .defer, bypass: [String] = [], span: SourceSpan? = nil) {
        self.during = during
        self.bypass = bypass
        self.span = span
    }
}

/// One entry of `batching:`.
public struct BatchGroup: Sendable, Hashable {
    public var name: String
    /// Seconds after the first member within which members join.
    public var window: Int
    /// Type names.
    public var members: [String]
    public var copy: Copy?
    public var link: Link?
    /// The flushed batch's thread id (`{type}`: the first member's type); nil: the group name.
    public var threadId: MessageTemplate?
    /// The flushed batch's interruption level; nil: `active`.
    public var interruption: Interruption?
    /// `by: threadId`: members coalesce only with members of the same thread (the rendered
    /// thread id); each thread has its own batches, keyed `<group>:<user>:<thread>:<start>`.
    public var byThread = false
    /// The params its copy and link name as `{first.<param>}` (P11): the batch's first member's.
    public var firstParams: [String] = []
    /// The types its batches can hold when `firstParams` is not empty (each declares them):
    /// their scheduled and batched decisions carry those params for the flush.
    public var firstHolders: [String] = []
    public var span: SourceSpan

    public init(name: String, window: Int, members: [String], copy: Copy?, link: Link?,
                threadId: MessageTemplate? = nil, span: SourceSpan) {
        self.name = name
        self.window = window
        self.members = members
        self.copy = copy
        self.link = link
        self.threadId = threadId
        self.span = span
    }
}

/// One entry of `digests:`: a summary delivered at a local time, daily or weekly on a weekday.
public struct Digest: Sendable, Hashable {
    public var name: String
    /// Seconds since local midnight (unused when `atReminderTime`).
    public var at: Int
    /// `at: reminder_time`: the user's own reminder time (`prefs.reminderTime`) instead of `at`.
    public var atReminderTime = false
    /// `every: week, on: <weekday>`: the weekday (1 = Monday … 7 = Sunday) of a weekly digest;
    /// nil: daily.
    public var weekday: Int?
    /// `members:` — types held for the digest on every decision (not only over a cap).
    public var members: [String] = []
    public var copy: Copy?
    public var link: Link?
    /// What a digest holding one notification delivers: that notification (`member`, the
    /// default) or the digest's own copy (`summary`).
    public var single: Single
    /// The flushed digest's thread id (`{type}`: the first member's type); nil: the digest name.
    public var threadId: MessageTemplate?
    /// The flushed digest's interruption level; nil: `active`.
    public var interruption: Interruption?
    /// The params its copy and link name as `{first.<param>}` (P11): the batch's first member's.
    public var firstParams: [String] = []
    /// The types its batches can hold when `firstParams` is not empty (each declares them):
    /// their scheduled and batched decisions carry those params for the flush.
    public var firstHolders: [String] = []
    public var span: SourceSpan

    /// `single:` — whether a digest with one member stays a summary.
    public enum Single: String, Sendable, Hashable, CaseIterable {
        case member, summary
    }

    public init(name: String, at: Int, copy: Copy?, link: Link?, single: Single = .member,
                threadId: MessageTemplate? = nil, span: SourceSpan) {
        self.name = name
        self.at = at
        self.copy = copy
        self.link = link
        self.single = single
        self.threadId = threadId
        self.span = span
    }
}

/// One entry of `priorities:` (highest first).
public struct PriorityEntry: Sendable, Hashable {
    /// A type or category name.
    public var name: String
    public var span: SourceSpan

    public init(name: String, span: SourceSpan) {
        self.name = name
        self.span = span
    }
}

/// `dst:` — how wall-clock times that do not exist or repeat resolve.
public struct DSTPolicy: Sendable, Hashable {
    /// Only the resolution the engine implements is accepted: a time in a spring-forward gap
    /// moves to the first valid minute after it (`shift`, moving by the gap's length, is not
    /// offered: it can land an hour late).
    public enum Gap: String, Sendable, Hashable, CaseIterable {
        case nextValidMinute = "next_valid_minute"
    }
    /// A repeated time resolves to its first occurrence and is never delivered twice (`last`
    /// is not offered).
    public enum Overlap: String, Sendable, Hashable, CaseIterable {
        case first
    }

    public var gap: Gap
    public var overlap: Overlap
    public var span: SourceSpan?

    public init(gap: Gap = .nextValidMinute, overlap: Overlap = .first, span: SourceSpan? = nil) {
        self.gap = gap
        self.overlap = overlap
        self.span = span
    }
}

/// `content:` — copy rules the lints check.
public struct ContentRules: Sendable, Hashable {
    /// A warning above this many characters; nil: no limit.
    public var maxLength: Int?
    /// Whole words or phrases, any case.
    public var banned: [String]
    /// Whole words or phrases, any case, that copy may use only after a person has read it in
    /// context (a warning, `content.review`, docs/seeds.md P18).
    public var review: [String] = []
    public var span: SourceSpan?

    public init(maxLength: Int? = nil, banned: [String] = [], span: SourceSpan? = nil) {
        self.maxLength = maxLength
        self.banned = banned
        self.span = span
    }
}

/// `dedupe:` of the policy.
public struct DedupePolicy: Sendable, Hashable {
    /// Seconds; nil: none.
    public var window: Int?
    public var span: SourceSpan?

    public init(window: Int? = nil, span: SourceSpan? = nil) {
        self.window = window
        self.span = span
    }
}
