public import HeraldEngine

/// The user half of a decide, plan, reconcile or prompt request as read from JSON, checked for
/// shape: the user record, preferences, OS permission, state and history.
/// `Engine.userContext(_:)` converts it, once, into the engine's `UserContext`.
public struct UserRequest: Sendable, Equatable {
    /// The user record: an object with a string `id` plus the catalog's declared fields.
    public var user: JSON
    /// The built-in preferences.
    public var prefs: PreferencesInput
    /// The catalog's declared preferences as given, by name.
    public var appPrefs: [String: JSON]
    public var permission: Permission
    /// The user's state (declared fields, nested objects); `{}` when absent.
    public var state: JSON
    /// The user's ledger, in the caller's order.
    public var history: [HistoryEntry]

    public init(user: JSON, prefs: PreferencesInput = PreferencesInput(), appPrefs: [String: JSON] = [:],
                permission: Permission = .unknown, state: JSON = .object([]), history: [HistoryEntry] = []) {
        self.user = user
        self.prefs = prefs
        self.appPrefs = appPrefs
        self.permission = permission
        self.state = state
        self.history = history
    }

    /// The user's `id` ("" when absent).
    public var id: String { user["id"]?.stringValue ?? "" }

    /// The user half in the contract's shape (`UserRequest(json:)` reads it back).
    public func json() -> JSON {
        .object([
            JSON.Member("user", user),
            JSON.Member("prefs", prefs.json(appPrefs: appPrefs)),
            JSON.Member("permission", .string(permission.rawValue)),
            JSON.Member("state", state),
            JSON.Member("history", .array(history.map { $0.json() })),
        ])
    }

    /// Reads the user half on its own: an object of `user` (required), `prefs`, `permission`,
    /// `state` and `history`.
    /// - Throws: `RequestErrors` listing every problem, each with its field path.
    public init(json: JSON) throws(RequestErrors) {
        var reader = RequestReader()
        guard let members = reader.object(json, at: "", known: PlanRequest.userFields) else { throw reader.errors }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        guard let request = reader.userRequest(fields), reader.errors.isEmpty else { throw reader.errors }
        self = request
    }
}
