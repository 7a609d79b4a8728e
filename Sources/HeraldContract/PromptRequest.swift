public import HeraldEngine
/// A `prompt` request as read from JSON: may the app ask this user for OS notification
/// permission now? The decide request's fields without a trigger (no `type`, `at`, `params`
/// or `subject`); see docs/decisions.md (Prompt).
public struct PromptRequest: Sendable, Equatable {
    /// The caller's current instant, seconds since the Unix epoch; rules read it as `now`,
    /// `trigger.at` and `local.*`.
    public var now: Int
    /// The user record: an object with a string `id` plus the catalog's declared fields.
    public var user: JSON
    public var prefs: PreferencesInput
    /// The catalog's declared preferences as given.
    public var appPrefs: [String: JSON]
    /// The OS permission as the device reports it now (`unknown` until the dialog is answered).
    public var permission: Permission
    /// The user's state (declared fields, nested objects); `{}` when absent.
    public var state: JSON
    /// The user's ledger, for `sent(…)` in rules.
    public var history: [HistoryEntry]

    public init(now: Int, user: JSON, prefs: PreferencesInput = PreferencesInput(), appPrefs: [String: JSON] = [:],
                permission: Permission = .unknown, state: JSON = .object([]), history: [HistoryEntry] = []) {
        self.now = now
        self.appPrefs = appPrefs
        self.user = user
        self.prefs = prefs
        self.permission = permission
        self.state = state
        self.history = history
    }

    /// Reads a request from JSON text.
    /// - Throws: `RequestErrors` with the parse error (path `request`) or every field problem.
    public static func parse(_ text: String, limits: JSONLimits = .standard) throws(RequestErrors) -> PromptRequest {
        let json = try RequestErrors.parseJSON(text, limits: limits)
        return try PromptRequest(json: json)
    }

    /// Decodes a request, checking every field (unknown fields, such as a decide request's
    /// `type`, are errors with "did you mean").
    /// - Throws: `RequestErrors` listing every problem, each with its field path.
    public init(json: JSON) throws(RequestErrors) {
        var reader = RequestReader()
        guard let request = reader.promptRequest(json) else { throw RequestErrors(reader.errors) }
        self = request
    }

    /// The user half of the request.
    public var userRequest: UserRequest {
        UserRequest(user: user, prefs: prefs, appPrefs: appPrefs, permission: permission, state: state, history: history)
    }

    /// The request in the contract's shape; `PromptRequest(json:)` reads it back.
    public func json() -> JSON {
        .object([
            JSON.Member("now", .string(ContractTime.format(now))),
            JSON.Member("user", user),
            JSON.Member("prefs", prefs.json(appPrefs: appPrefs)),
            JSON.Member("permission", .string(permission.rawValue)),
            JSON.Member("state", state),
            JSON.Member("history", .array(history.map { $0.json() })),
        ])
    }
}

extension RequestReader {
    static let promptFields = ["now", "user", "prefs", "permission", "state", "history"]

    mutating func promptRequest(_ json: JSON) -> PromptRequest? {
        guard let members = object(json, at: "", known: Self.promptFields) else { return nil }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let now = instant(fields["now"], at: "now")
        let user = userRequest(fields)
        guard errors.isEmpty, let now, let user else { return nil }
        return PromptRequest(now: now, user: user.user, prefs: user.prefs, appPrefs: user.appPrefs, permission: user.permission,
                             state: user.state, history: user.history)
    }
}
