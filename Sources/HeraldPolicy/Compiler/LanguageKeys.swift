/// The one table of valid keys for every place in a bundle. The compiler checks keys against
/// it (unknown key → `H0201` with "did you mean"), and tests check docs/language.md and the
/// JSON schema against it, so the three never drift apart.
public enum LanguageKeys {
    /// A place in a bundle where a mapping's keys are fixed.
    public struct Place: Sendable, Hashable {
        /// Words for messages: "a type", "a cap".
        public let noun: String
        /// Every valid key, in documentation order.
        public let keys: [String]
        /// The keys that must be present.
        public let required: [String]

        public init(noun: String, keys: [String], required: [String] = []) {
            self.noun = noun
            self.keys = keys
            self.required = required
        }
    }

    // Top level

    /// Catalog sections (WHAT exists).
    public static let catalogSections = ["app", "channels", "categories", "state", "user", "reasons", "routes", "badge", "types", "prefs"]
    /// Policy sections (WHEN it may fire).
    public static let policySections = [
        "catalog", "name", "description", "defaults", "quietHours", "caps", "cooldowns", "suppress", "dedupe", "provisional",
        "batching", "digests", "priorities", "dst", "content", "prompt", "backoff", "exemptions", "plan",
    ]
    /// Every valid top-level key of a bundle file.
    public static let topLevel = Place(noun: "a bundle file", keys: catalogSections + policySections)
    /// Sections whose entries are named (merged entry by entry across files; a name defined in
    /// two files is `H0005`).
    public static let namedSections: Set<String> = ["channels", "categories", "state", "user", "reasons", "routes", "types", "batching", "digests", "prefs"]
    /// Sections that are lists (concatenated across files in file-name order).
    public static let listSections: Set<String> = ["caps", "cooldowns", "suppress", "priorities", "backoff"]

    // Catalog

    public static let app = Place(noun: "`app`", keys: ["name", "scheme"], required: ["name", "scheme"])
    public static let channel = Place(noun: "a channel", keys: ["kind", "permission", "toggle", "default"], required: ["kind"])
    public static let category = Place(
        noun: "a category",
        keys: ["title", "default", "locked", "requires", "threadId", "interruption", "channels", "description", "keepChannels",
               "sound", "actions", "osChannel", "relevance", "foreground"],
        required: ["title"])
    /// The long form of a category's channel entry (docs/seeds.md P22).
    public static let categoryChannel = Place(noun: "a category's channel", keys: ["default", "title"])
    /// The mapping form of `sound:`: a sound the user's toggle switches (docs/seeds.md P13/P14).
    public static let sound = Place(noun: "`sound`", keys: ["file", "when"], required: ["file", "when"])
    /// One of `actions:` (docs/seeds.md P14).
    public static let quickAction = Place(noun: "an action", keys: ["id", "title"], required: ["id", "title"])
    /// The mapping form of `badge:` (docs/seeds.md P24).
    public static let badge = Place(noun: "`badge`", keys: ["tabs", "total"], required: ["tabs"])
    /// The long form of a state or user field.
    public static let schemaField = Place(noun: "a field", keys: ["type", "description"], required: ["type"])
    public static let reason = Place(noun: "a reason", keys: ["description"])
    public static let route = Place(noun: "a route", keys: ["url", "params", "description"], required: ["url"])
    /// The long form of a route param.
    public static let routeParam = Place(noun: "a route param", keys: ["type", "description"], required: ["type"])
    public static let type = Place(
        noun: "a type",
        keys: [
            "category", "channels", "fallback", "default", "description", "params", "eligible", "timing", "caps",
            "suppress", "dedupe", "idempotencyKey", "subject", "critical", "locked", "silent", "interruption",
            "threadId", "priority", "copy", "link", "delivery", "sound", "actions", "osChannel", "relevance", "payload",
            "foreground", "computed",
        ],
        required: ["category", "channels"])
    /// The long form of a type's param.
    public static let param = Place(noun: "a param", keys: ["type", "sensitive", "description"], required: ["type"])
    public static let timing = Place(noun: "`timing`", keys: ["at", "offset", "trainingDays", "expires", "quietHours", "judgedAt", "past", "sameDay"])
    public static let cap = Place(
        noun: "a cap",
        keys: ["id", "scope", "match", "only", "max", "per", "cooldown", "over", "exempt", "counts"])
    public static let cooldown = Place(noun: "a cooldown", keys: ["id", "scope", "match", "cooldown"], required: ["cooldown"])
    public static let typeSuppressRule = Place(noun: "a suppression rule", keys: ["id", "when", "reason"], required: ["when", "reason"])
    public static let policySuppressRule = Place(
        noun: "a suppression rule", keys: ["id", "match", "when", "reason"], required: ["when", "reason"])
    public static let typeDedupe = Place(noun: "`dedupe`", keys: ["key", "window", "by"])
    public static let copy = Place(noun: "`copy`", keys: ["title", "subtitle", "body", "lockscreen"], required: ["body"])
    /// `link:` holds `route` plus one key per route param, so only `route` is fixed.
    public static let link = Place(noun: "`link`", keys: ["route"], required: ["route"])

    /// One entry of `prefs:` (a declared preference; `maxPerDay` takes only `allowed` and `description`).
    public static let preference = Place(noun: "a preference", keys: ["type", "default", "allowed", "description"])

    // Policy

    /// `plan:` — what `plan` returns at most.
    public static let plan = Place(noun: "`plan`", keys: ["horizon", "maxPending"])
    public static let defaults = Place(
        noun: "`defaults`", keys: ["timezone", "reminderTime", "quietHours", "trainingDays", "maxPerDay", "pausedAll"])
    public static let quietHoursWindow = Place(noun: "a quiet-hours window", keys: ["start", "end"], required: ["start", "end"])
    public static let quietHours = Place(noun: "`quietHours`", keys: ["during", "bypass"])
    public static let policyDedupe = Place(noun: "`dedupe`", keys: ["window"])
    public static let batchGroup = Place(
        noun: "a batch group", keys: ["window", "members", "by", "copy", "link", "threadId", "interruption"], required: ["window", "members", "copy"])
    public static let digest = Place(noun: "a digest", keys: ["at", "every", "weekday", "members", "copy", "link", "single", "threadId", "interruption"], required: ["at", "copy"])
    public static let backoff = Place(
        noun: "a back-off", keys: ["id", "match", "by", "when", "for", "then", "reason"], required: ["when", "for", "then", "reason"])
    public static let backoffWhen = Place(noun: "a back-off's `when`", keys: ["dismissed", "ignored", "within", "opened"], required: ["within"])
    public static let backoffCap = Place(noun: "a back-off's `then`", keys: ["max", "per"], required: ["max", "per"])
    public static let dst = Place(noun: "`dst`", keys: ["gap", "overlap"])
    public static let content = Place(noun: "`content`", keys: ["maxLength", "banned", "review"])
    public static let exemptions = Place(noun: "`exemptions`", keys: ["locked", "critical"])
    public static let prompt = Place(noun: "`prompt`", keys: ["wait", "description"])
    public static let promptRule = Place(noun: "a prompt rule", keys: ["id", "when", "reason"], required: ["when", "reason"])

    /// Every fixed place, by the name docs and the JSON schema use for it.
    public static let places: [String: Place] = [
        "top-level": topLevel, "app": app, "channel": channel, "category": category, "schemaField": schemaField,
        "reason": reason, "route": route, "routeParam": routeParam, "type": type, "param": param, "timing": timing,
        "cap": cap, "cooldown": cooldown, "typeSuppressRule": typeSuppressRule, "policySuppressRule": policySuppressRule,
        "typeDedupe": typeDedupe, "copy": copy, "link": link, "defaults": defaults, "quietHoursWindow": quietHoursWindow,
        "quietHours": quietHours, "policyDedupe": policyDedupe, "batchGroup": batchGroup, "digest": digest, "dst": dst,
        "content": content, "prompt": prompt, "promptRule": promptRule,
        "backoff": backoff, "backoffWhen": backoffWhen, "backoffCap": backoffCap, "exemptions": exemptions,
        "categoryChannel": categoryChannel, "quickAction": quickAction, "sound": sound, "badge": badge,
        "preference": preference, "plan": plan,
    ]

    // Closed word sets

    public static let timingAnchors = ["immediate", "reminder_time", "local", "param", "state"]
    public static let capWindows = ["day", "week", "previous_7_days", "calendar_week", "month", "year", "lifetime"]
    public static let overflows = ["suppress", "defer", "batch", "digest"]
    public static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    public static let schemaTypes = ["bool", "int", "string", "duration", "instant", "time", "date", "weekday", "enum", "list", "map"]
}
