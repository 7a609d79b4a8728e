internal import HeraldPolicy

/// One user's side of every decision: who they are, their preferences and OS permission, the
/// catalog's declared `state` and `user` fields, and their ledger.
///
/// It is made once per request, against one engine's schema (`Engine.userContext(…)` from Swift
/// values; HeraldContract's readers from a request's JSON), and shared by every trigger decided
/// for the user: `decide`, `plan`, `reconcile` and `prompt` take it as it is, checking nothing
/// again. It is valid only with the engine that made it (a decision with another engine's is a
/// request error).
public struct UserContext: Sendable {
    /// The longest user id, in UTF-8 bytes, that any way in accepts (a request's `user.id`, a path,
    /// an event, `Engine.userContext(id:…)`): what can be recorded can also be read and deleted.
    public static let maxIDBytes = 256

    /// The user's id (`user.id`); "" when the request gave none.
    public let id: String
    /// The preferences as stated; what they leave out takes the policy's `defaults`.
    public let prefs: PreferencesInput
    public let permission: Permission
    /// The user's ledger as the caller sent it (a store passes what it read instead).
    public let history: [HistoryEntry]
    /// The declared `state`/`user` values by the engine's field slots (`.null`: absent).
    let fields: [Value]
    /// `prefs` with the policy's defaults filled in, the zone resolved.
    let effective: EffectivePreferences
    /// The engine whose schema `fields` follows.
    let schema: ObjectIdentifier

    init(id: String, prefs: PreferencesInput, permission: Permission, history: [HistoryEntry], fields: [Value],
         effective: EffectivePreferences, schema: ObjectIdentifier) {
        self.id = id
        self.prefs = prefs
        self.permission = permission
        self.history = history
        self.fields = fields
        self.effective = effective
        self.schema = schema
    }

    /// The same user with another ledger (a plan feeding its decisions back; a store's read).
    public func with(history: [HistoryEntry]) -> UserContext {
        UserContext(id: id, prefs: prefs, permission: permission, history: history, fields: fields, effective: effective, schema: schema)
    }
}

extension UserContext {
    /// What is wrong with `id` as a user id (longer than `maxIDBytes`), or nil.
    public static func idProblem(_ id: String) -> String? {
        id.utf8.count > maxIDBytes ? "a user id must be at most \(maxIDBytes) bytes, got \(id.utf8.count)" : nil
    }
}
