internal import HeraldPolicy

/// One notification to decide: its type, when it was triggered, its params and what
/// per-subject caps count it by.
///
/// Made against one engine's catalog (`Engine.trigger(…)` from Swift values; HeraldContract's
/// readers from a request's JSON), which checks the type and each param's declared type once.
public struct Trigger: Sendable {
    /// The notification type id (`N-MAINT-DUE-TODAY`).
    public let type: String
    /// The trigger instant, seconds since the Unix epoch (UTC).
    public let at: Int
    /// What per-subject caps count by, when the trigger has one (a type's `subject` template
    /// takes precedence).
    public let subject: String?
    /// The params by the type's declaration order (`.null`: absent).
    let params: [Value]

    init(type: String, at: Int, subject: String?, params: [Value]) {
        self.type = type
        self.at = at
        self.subject = subject
        self.params = params
    }
}
