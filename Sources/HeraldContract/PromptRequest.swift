public import HeraldEngine

/// A `prompt` request as read from JSON: may the app ask this user for OS notification
/// permission now? The decide request's fields without a trigger (no `type`, `at`, `params`
/// or `subject`); see docs/decisions.md (Prompt).
public struct PromptRequest: Sendable, Equatable {
    /// The caller's current instant, seconds since the Unix epoch; rules read it as `now`,
    /// `trigger.at` and `local.*`.
    public var now: Int
    /// The user, their preferences, OS permission (`unknown` until the dialog is answered),
    /// state and ledger.
    public var user: UserRequest

    public init(now: Int, user: UserRequest) {
        self.now = now
        self.user = user
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
        guard let members = reader.object(json, at: "", known: ["now"] + PlanRequest.userFields) else { throw reader.errors }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let now = reader.instant(fields["now"], at: "now")
        let user = reader.userRequest(fields)
        guard reader.errors.isEmpty, let now, let user else { throw reader.errors }
        self.init(now: now, user: user)
    }

    /// The request in the contract's shape; `PromptRequest(json:)` reads it back.
    public func json() -> JSON {
        .object([JSON.Member("now", .string(ContractTime.format(now)))] + (user.json().members ?? []))
    }
}
