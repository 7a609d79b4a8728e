public import HeraldEngine
import HeraldSyntax

/// A `decide` request as read from JSON (docs/decisions.md): one trigger for one user, with the
/// user's preferences, state and history, checked for shape. `Engine.inputs(_:)` converts it,
/// once, against a policy's schema into the engine's `UserContext` and `Trigger`.
public struct DecisionRequest: Sendable, Equatable {
    /// The notification type id (`N-MAINT-DUE-TODAY`).
    public var type: String
    /// The trigger instant, seconds since the Unix epoch (UTC).
    public var at: Int
    /// The caller's current instant; the engine never reads a clock.
    public var now: Int
    /// The user record: an object with a string `id` plus the catalog's declared fields.
    public var user: JSON
    /// The built-in preferences; the catalog's own are in `appPrefs`.
    public var prefs: PreferencesInput
    /// The catalog's declared preferences as given (every `prefs` field that is not built in),
    /// converted by their declared types with the rest of the request.
    public var appPrefs: [String: JSON]
    public var permission: Permission
    /// The user's state (declared fields, nested objects); `{}` when absent.
    public var state: JSON
    /// The trigger's parameters; `{}` when absent.
    public var params: JSON
    /// What per-subject caps count by, when the trigger has one.
    public var subject: String?
    /// The user's ledger, in the caller's order.
    public var history: [HistoryEntry]

    public init(
        type: String, at: Int, now: Int, user: JSON, prefs: PreferencesInput = PreferencesInput(), appPrefs: [String: JSON] = [:],
        permission: Permission = .unknown, state: JSON = .object([]), params: JSON = .object([]),
        subject: String? = nil, history: [HistoryEntry] = []
    ) {
        self.appPrefs = appPrefs
        self.type = type
        self.at = at
        self.now = now
        self.user = user
        self.prefs = prefs
        self.permission = permission
        self.state = state
        self.params = params
        self.subject = subject
        self.history = history
    }

    /// The user's `id`.
    public var userID: String { user["id"]?.stringValue ?? "" }

    /// The user half of the request.
    public var userRequest: UserRequest {
        get { UserRequest(user: user, prefs: prefs, appPrefs: appPrefs, permission: permission, state: state, history: history) }
        set {
            user = newValue.user
            prefs = newValue.prefs
            appPrefs = newValue.appPrefs
            permission = newValue.permission
            state = newValue.state
            history = newValue.history
        }
    }

    /// Reads a request from JSON text.
    /// - Throws: `RequestErrors` with the parse error (path `request`, message `line:col: …`)
    ///   or every field problem found.
    public static func parse(_ text: String, limits: JSONLimits = .standard) throws(RequestErrors) -> DecisionRequest {
        let json = try RequestErrors.parseJSON(text, limits: limits)
        return try DecisionRequest(json: json)
    }

    /// Decodes a request, checking every field.
    /// - Throws: `RequestErrors` listing every problem, each with its field path.
    public init(json: JSON) throws(RequestErrors) {
        var reader = RequestReader()
        guard let request = reader.request(json) else { throw reader.errors }
        self = request
    }
}

/// Walks a request, collecting every problem instead of stopping at the first. (Internal:
/// `PromptRequest` reads its fields with the same checks.)
package struct RequestReader {
    package var errors = RequestErrors()

    package init() {}

    static let requestFields = ["type", "at", "now", "user", "prefs", "permission", "state", "params", "subject", "history"]
    static var prefsFields: [String] { Engine.builtInPreferences }
    static let historyFields = ["key", "type", "subject", "channel", "deliverAt", "status", "batch"]

    mutating func fail(_ path: String, _ message: String, code: String? = nil) {
        errors.append(RequestError(path: path, message: message, code: code))
    }

    /// `"tomorrow"`, `42`, `null`, or the value's kind for arrays and objects.
    package static func show(_ value: JSON) -> String {
        switch value {
        case .string(let s):
            let shown = s.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(40))) + "…" : s
            return JSON.string(shown).serialized()
        case .array, .object: return value.kindName
        default: return value.serialized()
        }
    }

    mutating func mismatch(_ path: String, _ expected: String, _ value: JSON) {
        fail(path, "expected \(expected), got \(Self.show(value))")
    }

    func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The members of an object, reporting unknown keys when `known` is given.
    mutating func object(_ value: JSON, at path: String, known: [String]?) -> [JSON.Member]? {
        guard let members = value.members else {
            mismatch(path.isEmpty ? "request" : path, "an object", value)
            return nil
        }
        if let known {
            for member in members where !known.contains(member.key) {
                let fieldPath = join(path, member.key)
                errors.append({
                    var message = "unknown field `\(member.key)`"
                    if let close = Suggestions.closest(to: member.key, in: known) { message += "; did you mean `\(close)`?" }
                    return RequestError(path: fieldPath, message: message)
                }())
            }
        }
        return members
    }

    mutating func string(_ value: JSON?, at path: String, required: Bool = true) -> String? {
        guard let value else {
            if required { fail(path, "missing required field") }
            return nil
        }
        guard let s = value.stringValue else {
            mismatch(path, "a string", value)
            return nil
        }
        if required && s.isEmpty { fail(path, "must not be empty") }
        return s
    }

    /// A string, or nil for absent or `null`.
    mutating func optionalString(_ value: JSON?, at path: String) -> String? {
        guard let value, !value.isNull else { return nil }
        return string(value, at: path, required: false)
    }

    mutating func instant(_ value: JSON?, at path: String) -> Int? {
        guard let value else {
            fail(path, "missing required field")
            return nil
        }
        guard let text = value.stringValue, let instant = ContractTime.parseInstant(text) else {
            let outOfRange = value.stringValue.map(RFC3339.isOutOfRange) ?? false
            mismatch(path, outOfRange ? RFC3339.rangeExpectation : "an RFC 3339 instant", value)
            return nil
        }
        return instant
    }

    mutating func bool(_ value: JSON, at path: String) -> Bool? {
        guard let b = value.boolValue else {
            mismatch(path, "true or false", value)
            return nil
        }
        return b
    }

    mutating func timeOfDay(_ value: JSON, at path: String) -> Int? {
        guard let text = value.stringValue, let seconds = ContractTime.parseTimeOfDay(text) else {
            mismatch(path, "a time of day \"HH:MM\"", value)
            return nil
        }
        return seconds
    }

    mutating func toggles(_ value: JSON, at path: String) -> [String: Bool] {
        guard let members = object(value, at: path, known: nil) else { return [:] }
        var result: [String: Bool] = [:]
        for member in members {
            if let b = bool(member.value, at: join(path, member.key)) { result[member.key] = b }
        }
        return result
    }

    mutating func oneOf<T: RawRepresentable<String> & CaseIterable>(_ value: JSON?, at path: String, as _: T.Type) -> T? {
        guard let value else {
            fail(path, "missing required field")
            return nil
        }
        guard let text = value.stringValue, let result = T(rawValue: text) else {
            mismatch(path, "one of " + T.allCases.map(\.rawValue).joined(separator: ", "), value)
            return nil
        }
        return result
    }

    // MARK: Sections

    /// `user`: a required object, whose `id` (when present) is a string of at most
    /// `UserContext.maxIDBytes`.
    mutating func user(_ value: JSON?) -> JSON? {
        guard let value else {
            fail("user", "missing required field")
            return nil
        }
        guard object(value, at: "user", known: nil) != nil else { return nil }
        if let id = string(value["id"], at: "user.id"), let problem = UserContext.idProblem(id) {
            fail("user.id", problem)
        }
        return value
    }

    /// `history`: an array of entries (absent: empty).
    mutating func history(_ value: JSON?) -> [HistoryEntry] {
        guard let value else { return [] }
        guard let elements = value.elements else {
            mismatch("history", "an array", value)
            return []
        }
        var history: [HistoryEntry] = []
        for (index, element) in elements.enumerated() {
            if let entry = historyEntry(element, at: "history[\(index)]") { history.append(entry) }
        }
        return history
    }

    mutating func request(_ json: JSON) -> DecisionRequest? {
        guard let members = object(json, at: "", known: Self.requestFields) else { return nil }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let type = string(fields["type"], at: "type")
        let at = instant(fields["at"], at: "at")
        let now = instant(fields["now"], at: "now")
        let userRequest = self.userRequest(fields)
        let params = objectOrEmpty(fields["params"], at: "params")
        let subject = optionalString(fields["subject"], at: "subject")
        guard errors.isEmpty, let type, let at, let now, let userRequest else { return nil }
        var request = DecisionRequest(type: type, at: at, now: now, user: .object([]), params: params, subject: subject)
        request.userRequest = userRequest
        return request
    }

    /// The user half of a request's fields (`user`, `prefs`, `permission`, `state`, `history`).
    mutating func userRequest(_ fields: [String: JSON]) -> UserRequest? {
        let user = self.user(fields["user"])
        let (prefs, appPrefs) = fields["prefs"].map { preferences($0, at: "prefs") } ?? (PreferencesInput(), [:])
        let permission = fields["permission"].map { oneOf($0, at: "permission", as: Permission.self) } ?? .unknown
        let state = objectOrEmpty(fields["state"], at: "state")
        let history = self.history(fields["history"])
        guard let user, let permission else { return nil }
        return UserRequest(user: user, prefs: prefs, appPrefs: appPrefs, permission: permission, state: state, history: history)
    }

    mutating func objectOrEmpty(_ value: JSON?, at path: String) -> JSON {
        guard let value else { return .object([]) }
        return object(value, at: path, known: nil) == nil ? .object([]) : value
    }

    /// The built-in preferences, and the catalog's own as given. Fields that are not built in
    /// are the catalog's declared preferences, converted against the bundle with the rest of
    /// the request (`Engine.userContext(_:)`; an unknown one is reported there).
    mutating func preferences(_ json: JSON, at path: String) -> (PreferencesInput, [String: JSON]) {
        var prefs = PreferencesInput()
        var app: [String: JSON] = [:]
        guard let members = object(json, at: path, known: nil) else { return (prefs, app) }
        for member in members {
            let fieldPath = join(path, member.key)
            let value = member.value
            switch member.key {
            case "timezone": prefs.timezone = string(value, at: fieldPath)
            case "pausedAll": prefs.pausedAll = bool(value, at: fieldPath)
            case "categories": prefs.categories = toggles(value, at: fieldPath)
            case "channels": prefs.channels = toggles(value, at: fieldPath)
            case "types": prefs.types = toggles(value, at: fieldPath)
            case "quietHours": prefs.quietHours = quietHours(value, at: fieldPath)
            case "reminderTime": prefs.reminderTime = timeOfDay(value, at: fieldPath)
            case "trainingDays": prefs.trainingDays = weekdays(value, at: fieldPath)
            case "maxPerDay":
                if let n = value.intValue, n >= 0 {
                    prefs.maxPerDay = n
                } else {
                    mismatch(fieldPath, "a non-negative integer", value)
                }
            case "muted":
                guard let elements = value.elements else {
                    mismatch(fieldPath, "an array of strings", value)
                    break
                }
                prefs.muted = elements.enumerated().compactMap { index, element in
                    string(element, at: "\(fieldPath)[\(index)]", required: false)
                }
            default: app[member.key] = value
            }
        }
        return (prefs, app)
    }

    mutating func quietHours(_ value: JSON, at path: String) -> PreferencesInput.QuietHours? {
        if value.isNull { return .off }
        guard object(value, at: path, known: ["start", "end"]) != nil else { return nil }
        let start = value["start"].flatMap { timeOfDay($0, at: join(path, "start")) }
        let end = value["end"].flatMap { timeOfDay($0, at: join(path, "end")) }
        if value["start"] == nil { fail(join(path, "start"), "missing required field") }
        if value["end"] == nil { fail(join(path, "end"), "missing required field") }
        guard let start, let end else { return nil }
        // UrbanNest U5 "start and end cannot be the same": an empty window is neither "no quiet
        // hours" (that is `null`) nor a whole day, so it is refused rather than guessed.
        if start == end {
            fail(path, "quiet hours start and end at the same time; give a window whose start differs from its end, or `null` for no quiet hours",
                 code: "H0257")
            return nil
        }
        return .window(start: start, end: end)
    }

    mutating func weekdays(_ value: JSON, at path: String) -> [Int]? {
        guard let elements = value.elements else {
            mismatch(path, "an array of weekdays", value)
            return nil
        }
        var days: Set<Int> = []
        for (index, element) in elements.enumerated() {
            if let name = element.stringValue, let i = PreferencesInput.weekdayNames.firstIndex(of: name) {
                days.insert(i + 1)
            } else {
                mismatch("\(path)[\(index)]", "a weekday (" + PreferencesInput.weekdayNames.joined(separator: ", ") + ")", element)
            }
        }
        return days.sorted()
    }

    mutating func historyEntry(_ json: JSON, at path: String) -> HistoryEntry? {
        guard object(json, at: path, known: Self.historyFields) != nil else { return nil }
        let key = string(json["key"], at: join(path, "key"))
        let type = string(json["type"], at: join(path, "type"))
        let subject = optionalString(json["subject"], at: join(path, "subject"))
        let channel = optionalString(json["channel"], at: join(path, "channel"))
        let deliverAt = instant(json["deliverAt"], at: join(path, "deliverAt"))
        let status = oneOf(json["status"], at: join(path, "status"), as: HistoryEntry.Status.self)
        let batch = optionalString(json["batch"], at: join(path, "batch"))
        guard let key, let type, let deliverAt, let status else { return nil }
        return HistoryEntry(key: key, type: type, subject: subject, channel: channel,
                            deliverAt: deliverAt, status: status, batchKey: batch)
    }
}
