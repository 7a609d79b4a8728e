public import HeraldSyntax

// A closed family: the policy's `exemptions:` section and the two word sets it lists.

/// `exemptions:` — what the two escape hatches skip (docs/seeds.md P3): a `locked` type or
/// category, and a `critical` type. Without the section (or one of its keys), the defaults
/// below, which are what the engine did before the section existed.
public struct Exemptions: Sendable, Hashable {
    /// The preference verdicts a locked type or category is exempt from.
    public var locked: Set<LockedExemption>
    /// The stages a `critical: true` type skips.
    public var critical: Set<CriticalExemption>
    /// The section's key, when declared.
    public var span: SourceSpan?
    /// The `critical` key, when declared (what a decision that skipped quiet hours cites).
    public var criticalSpan: SourceSpan?

    /// Every preference switch: pause all, the category and type toggles, the channel toggles.
    public static let defaultLocked: Set<LockedExemption> = Set(LockedExemption.allCases)
    /// Training days only.
    public static let defaultCritical: Set<CriticalExemption> = [.trainingDays]

    public init(locked: Set<LockedExemption> = defaultLocked, critical: Set<CriticalExemption> = defaultCritical,
                span: SourceSpan? = nil) {
        self.locked = locked
        self.critical = critical
        self.span = span
    }
}

/// What `exemptions.locked` may list: the preference verdicts a locked type or category skips.
public enum LockedExemption: String, Sendable, Hashable, CaseIterable {
    /// `prefs.pausedAll`.
    case pausedAll = "paused_all"
    /// The category toggle (not `requires`: premium gating still applies).
    case categoryOff = "category_off"
    /// The type toggle (a locked type only).
    case typeOff = "type_off"
    /// The channel master toggles and the category-channel toggles.
    case channelOff = "channel_off"
}

/// What `exemptions.critical` may list: the stages a `critical: true` type skips.
public enum CriticalExemption: String, Sendable, Hashable, CaseIterable {
    /// The policy's global caps (`scope: global`); category, channel and subject caps,
    /// cooldowns and the type's own caps still apply.
    case caps
    /// The user's quiet hours (unless the type sets its own `timing.quietHours`).
    case quietHours = "quiet_hours"
    /// Moving to the next training day (`timing.trainingDays`).
    case trainingDays = "training_days"
}
