// The sections and shared definitions of the bundle schema, in docs/language.md's order.

import HeraldSyntax

extension JSONSchemaGenerator {
    // MARK: - Shared definitions

    static var definitions: [(String, JSONOutput)] {
        [
            ("identifier", string("A name: letters, digits, `_`, `-`, `.`.", pattern: identifierPattern)),
            ("names", list(ref("identifier"), "A list of names.")),
            ("duration", string("A duration: units `s m h d w` (`30s`, `15m`, `48h`, `7d`, `2w`, `1h30m`); `d` is 24 hours.", pattern: durationPattern)),
            ("signedDuration", string("A duration that may be negative (`-48h`).", pattern: signedDurationPattern)),
            ("timeOfDay", string("A local wall-clock time `HH:MM`, 24-hour (quote it: `\"19:00\"`).", pattern: timeOfDayPattern)),
            ("weekday", enumeration(weekdays, "A day of the week.")),
            ("interruption", enumeration(interruptionLevels, "How strongly a notification may interrupt.")),
            ("expression", string("An expression (docs/language.md (Expressions)).")),
            ("boolExpression", anyOf([ref("expression"), object([("type", .string("boolean"))])], "A bool expression, or a literal `true`/`false`.")),
            ("intExpression", anyOf([ref("expression"), object([("type", .string("integer"))])], "An int expression, or a literal int.")),
            ("template", string("A copy template: `{param}`, `{n, plural, one {# item} other {# items}}`, `{k, select, a {…} other {…}}`, `{t, time[, 24h|12h]}` and `{t, date[, iso|medium|long|weekday]}` (an instant in the user's zone); `'{'` escapes a brace.")),
            ("valueType", string("A value type: `bool`, `int`, `string`, `duration`, `instant`, `time`, `date`, `weekday`, `enum(a, b)`, `list<T>`; `T?` is optional.", pattern: valueTypePattern)),
            ("stateValueType", anyOf([ref("valueType"), string("A map from string keys to plain values, read by key (`m[key] ?? default`).", pattern: mapTypePattern)],
                                     "A state or user field's type: a value type, or `map<T>`.")),
            ("fieldName", string("A field or param name, usable in expressions: a letter or `_`, then letters, digits and `_`.", pattern: fieldNamePattern)),
            ("schemaField", record([
                ("type", ref("stateValueType", "The field's type.")),
                ("description", string("Documentation only.")),
            ], required: ["type"], description: "The long form of a state or user field.")),
            ("field", object([
                ("description", .string("A field of the state or user schema: a type, the long form `{ type, description }` (any mapping whose `type` is text), or a nested object.")),
                ("if", object([
                    ("type", .string("object")),
                    ("properties", object([("type", object([("type", .string("string"))]))])),
                    ("required", .array([.string("type")])),
                ])),
                ("then", ref("schemaField")),
                ("else", anyOf([ref("stateValueType"), ref("fields")])),
            ])),
            ("fields", map(ref("field"), "An object of the state or user schema: field name → field.", names: "fieldName")),
            ("param", record([
                ("type", ref("valueType", "The param's type.")),
                ("sensitive", boolean("Data that must not reach the lock screen (a type using it in copy needs `lockscreen`).")),
                ("description", string("Documentation only.")),
            ], required: ["type"], description: "The long form of a type's param.")),
            ("params", map(anyOf([ref("valueType"), ref("param")], "A param: a type, or `{ type, sensitive, description }`."),
                           "The trigger's parameters: name → type.", names: "fieldName")),
            ("routeParam", record([
                ("type", ref("valueType", "The param's type.")),
                ("description", string("Documentation only.")),
            ], required: ["type"], description: "The long form of a route param.")),
            ("routeParams", map(anyOf([ref("valueType"), ref("routeParam")], "A route param: a type, or `{ type, description }`."),
                                "The route's params: name → type; every one must appear in `url`. An optional one (`T?`) is the whole value of a query item, and a link may leave it out.", names: "fieldName")),
            ("copy", record([
                ("title", ref("template", "The title.")),
                ("subtitle", ref("template", "The subtitle.")),
                ("body", ref("template", "The body (required).")),
                ("lockscreen", ref("template", "The lock-screen-safe body.")),
            ], required: ["body"], description: "The text of a notification (templates).")),
            ("link", object([
                ("type", .string("object")),
                ("description", .string("A deep link: `route` names a route; every other key binds a route param to a literal or a template over the params (an optional route param may be left unbound).")),
                ("properties", object([("route", ref("identifier", "The route's name."))])),
                ("required", .array([.string("route")])),
                ("propertyNames", ref("identifier")),
                ("additionalProperties", object([("type", .array([.string("string"), .string("integer"), .string("boolean")]))])),
            ])),
            ("cap", record([
                ("id", ref("identifier", "Named in decisions (`cap`) and traces; unique in the bundle; defaults to `caps[<n>]` (policy) or `<type>.caps[<n>]` (a type's), 0-based.")),
                ("scope", enumeration(["global", "category", "type", "channel", "subject"], "What is counted together (`type` inside a type, else `global`).")),
                ("match", ref("names", "Type, category or channel names the cap applies to and counts (default all).")),
                ("only", ref("names", "Type or category names the cap applies to; it still counts all of its scope.")),
                ("max", anyOf([object([("type", .string("integer")), ("minimum", .int(0))]), ref("expression")], "How many (an int, or an int expression over `prefs.*`/`user.*`; in a `scope: subject` cap also over `state.*` and `subject`, such as `state.plans.cadence[subject] ?? 2`); required unless `cooldown`.")),
                ("per", anyOf([
                    enumeration(LanguageKeys.capWindows),
                    ref("duration"),
                ], "The window: `day` (the user's local day), `week` (the day and the six before), `calendar_week`, `month`, `year`, `lifetime`, or a duration.")),
                ("cooldown", ref("duration", "At least this long since the last one in scope.")),
                ("over", string("What happens over the cap: `suppress` (default), `defer`, `batch(<group>)`, `digest(<name>)`.", pattern: overPattern)),
                ("exempt", ref("names", "Type or category names never limited by this cap.")),
                ("counts", list(enumeration(["scheduled", "delivered", "opened", "dismissed", "cancelled"]), "Which history statuses count (default scheduled, delivered, opened, dismissed).")),
            ], description: "A cap: how many notifications of its scope may be delivered in a window.", extra: [
                ("dependentRequired", object([
                    ("max", .array([.string("per")])),
                    ("per", .array([.string("max")])),
                ])),
                ("anyOf", .array([
                    object([("required", .array([.string("cooldown")]))]),
                    object([("required", .array([.string("max"), .string("per")]))]),
                ])),
            ])),
            ("caps", list(ref("cap"), "Caps, in order.")),
            ("cooldown", record([
                ("id", ref("identifier", "Named in decisions and traces; defaults to `cooldowns[<n>]` (0-based).")),
                ("scope", enumeration(["global", "category", "type", "channel", "subject"], "What is counted together (default `global`).")),
                ("match", ref("names", "Which notifications the cooldown applies to.")),
                ("cooldown", ref("duration", "At least this long since the last one in scope.")),
            ], required: ["cooldown"], description: "A cap with only `cooldown`.")),
            ("typeSuppressRule", record([
                ("id", ref("identifier", "Named in decisions and traces; defaults to `<type>.suppress[<n>]` (0-based).")),
                ("when", ref("boolExpression", "Suppress when this is true (required).")),
                ("reason", ref("identifier", "A built-in reason or one declared in `reasons` (required).")),
            ], required: ["when", "reason"], description: "A type's suppression rule; the first true one suppresses with its reason.")),
            ("policySuppressRule", record([
                ("id", ref("identifier", "Named in decisions and traces; defaults to `suppress[<n>]` (0-based).")),
                ("match", ref("names", "Types or categories the rule applies to (default all).")),
                ("when", ref("boolExpression", "Suppress when this is true (required).")),
                ("reason", ref("identifier", "A built-in reason or one declared in `reasons` (required).")),
            ], required: ["when", "reason"], description: "A policy-wide suppression rule, evaluated after the type's own.")),
            ("timing", record([
                ("at", string("When it is due: `immediate` (default), `reminder_time`, `local(\"09:00\")`, `local(state(path))` / `local(state(path) ?? \"18:00\")` (a time state field), `param(name)` (an instant param), `state(path)` (an instant state field).", pattern: timingAtPattern)),
                ("offset", ref("signedDuration", "Added to the aligned instant; may be negative (default `0s`).")),
                ("trainingDays", boolean("Prefer the user's next training day at reminder time (default false).")),
                ("expires", ref("duration", "`expired` if deferral pushes delivery past trigger + this (default never).")),
                ("quietHours", enumeration(["defer", "bypass", "suppress", "passive"], "This type's treatment of quiet hours, overriding the policy's.")),
                ("judgedAt", enumeration(JudgedAt.allCases.map(\.rawValue), "When `since()`, `local.*` and `sent(…)` windows are judged: `trigger` (default) or `delivery` (the candidate delivery instant).")),
                ("past", enumeration(PastTreatment.allCases.map(\.rawValue), "An aligned instant already past when decided: `deliver` at once (default) or `skip` (`missed`).")),
                ("sameDay", boolean("`reminder_time` / `local(…)` on the trigger's own local date even when past, instead of the next occurrence (default false).")),
            ], description: "When the type is due (default `{ at: immediate }`).")),
            ("typeDedupe", record([
                ("key", ref("template", "The dedupe key.")),
                ("window", ref("duration", "`duplicate` for the same key within this window.")),
                ("by", enumeration(["key", "content"], "`key` (default) or `content`: the key is the type and a fingerprint of the rendered copy and link.")),
            ], description: "A type's deduplication.")),
            ("quietHoursWindow", record([
                ("start", ref("timeOfDay", "Start of quiet hours.")),
                ("end", ref("timeOfDay", "End of quiet hours.")),
            ], required: ["start", "end"], description: "A quiet-hours window (local times of day).")),
        ]
    }

    // MARK: - Catalog sections

    /// The top-level catalog properties, in docs/language.md's order.
    static var catalogSections: [(String, JSONOutput)] {
        [
            ("app", ref("app", "The app the catalog describes.")),
            ("channels", map(ref("channel"), "How a notification can reach the user: channel name → channel.")),
            ("categories", map(ref("category"), "User-visible toggle groups: category name → category.")),
            ("state", ref("fields", "The schema of the caller-supplied user state.")),
            ("user", ref("fields", "The schema of the caller-supplied user record.")),
            ("reasons", map(anyOf([string("Short form: the description."), ref("reason")], "A suppression reason: its description, or `{ description }`."),
                            "The catalog's own suppression reason codes, added to the built-in set.")),
            ("routes", map(ref("route"), "Typed deep-link templates: route name → route.")),
            ("badge", anyOf([ref("intExpression"), ref("badge")],
                            "An int expression rendered into `notification.badge` of every decision, or per-tab badges `{ tabs, total }`.")),
            ("types", map(ref("type"), "Every notification type: Type ID → type.")),
            ("prefs", map(ref("preference"), "Declared preferences: name → `{ type, default, allowed }` (`maxPerDay`: `{ allowed }` only).", names: "fieldName")),
        ]
    }

    /// The render-only keys of categories and types (docs/seeds.md P14).
    static var renderKeyProperties: [(String, JSONOutput)] {
        [
            ("sound", anyOf([string("The sound file (`score_update.caf`) or `default`."), ref("sound")],
                            "The sound, or `{ file, when }`: a sound the user's toggle switches; rendered as `notification.sound`.")),
            ("foreground", enumeration(["banner", "list", "none"],
                                       "What the app shows when the notification arrives while it is open: an in-app `banner`, the notification center's `list` only, or `none`; rendered as `notification.foreground`.")),
            ("actions", list(ref("quickAction"), "Quick actions, in order; rendered as `notification.actions`.")),
            ("osChannel", string("The Android notification channel id; rendered as `notification.osChannel`.")),
            ("relevance", object([("type", .string("number")), ("minimum", .int(0)), ("maximum", .int(1)),
                                  ("description", .string("iOS relevance score, 0 … 1; rendered as `notification.relevance`."))])),
        ]
    }

    /// The places of the catalog whose keys are fixed (named as in `LanguageKeys.places`).
    static var catalogPlaces: [(String, JSONOutput)] {
        [
            ("preference", record([
                ("type", anyOf([enumeration(["bool", "int", "string"], "A scalar type."), string("An enum type `enum(a, b)`.", pattern: "^enum\\(.*\\)$")],
                               "The preference's type: `bool`, `int`, `string` or `enum(a, b)` (required but for `maxPerDay`).")),
                ("default", anyOf([object([("type", .string("boolean"))]), object([("type", .string("integer"))]), object([("type", .string("string"))])],
                                  "The value when the request leaves it out (required but for `maxPerDay`, whose default is `defaults.maxPerDay`).")),
                ("allowed", list(anyOf([object([("type", .string("integer"))]), object([("type", .string("string"))])]),
                                 "The only values a request may state (a request error `H0256` otherwise); not for bool.", minItems: 1)),
                ("description", string("Documentation only.")),
            ], description: "A declared preference (`prefs.<name>` in expressions and requests).")),
            ("app", record([
                ("name", string("The app's display name, shown in traces (required).")),
                ("scheme", string("The deep-link scheme alone (`myapp` for `myapp://…`; required).", pattern: "^[A-Za-z][A-Za-z0-9+.-]*$")),
            ], required: ["name", "scheme"], description: "The app the catalog describes.")),
            ("channel", record([
                ("kind", enumeration(["local", "push", "email", "sms", "in_app"], "How the channel delivers (required).")),
                ("permission", boolean("Delivery needs OS permission (default true for `local` and `push`, else false).")),
                ("toggle", boolean("The user has a master toggle for the channel (`prefs.channels.<name>`; default false).")),
                ("default", boolean("The master toggle's default (default true).")),
            ], required: ["kind"], description: "A channel.")),
            ("category", record([
                ("title", string("Shown to the user (required).")),
                ("default", boolean("On unless the user turns it off (default true).")),
                ("locked", boolean("Always on; `pausedAll` and `category_off` do not apply unless the policy says so (default false).")),
                ("requires", ref("boolExpression", "The category is usable only when true (premium gating).")),
                ("threadId", ref("template", "Notification grouping; may use `{type}`, `{subject}` and params (default the category name).")),
                ("interruption", ref("interruption", "Default for its types (default `active`).")),
                ("channels", object([
                    ("type", .string("object")),
                    ("description", .string("Per-channel defaults of the category toggle: channel → bool, or `{ default, title }` with the category's label on that channel.")),
                    ("propertyNames", ref("identifier")),
                    ("additionalProperties", anyOf([object([("type", .string("boolean"))]), ref("categoryChannel")])),
                ])),
                ("description", string("Documentation only.")),
                ("keepChannels", list(ref("identifier"), "Channels its types still deliver on when the category is off (e.g. `[in_app]`).")),
            ] + renderKeyProperties, required: ["title"], description: "A category.")),
            ("categoryChannel", record([
                ("default", boolean("The category toggle's default on this channel (default true).")),
                ("title", string("The category's label on this channel, rendered as `notification.categoryTitle`.")),
            ], description: "A category's channel entry.")),
            ("sound", record([
                ("file", string("The sound file (`default` for the system sound) (required).")),
                ("when", ref("boolExpression", "The sound plays only when this holds; it reads only `prefs.*` (required).")),
            ], required: ["file", "when"], description: "A sound switched by a preference.")),
            ("quickAction", record([
                ("id", string("What the app receives when the action is tapped (required; unique in its list).")),
                ("title", string("The button's label (required).")),
            ], required: ["id", "title"], description: "A quick action.")),
            ("badge", record([
                ("tabs", map(ref("intExpression"), "Each app tab's badge: tab name → int expression (required).", names: "fieldName")),
                ("total", ref("intExpression", "The app icon's badge (default: the sum of the tabs).")),
            ], required: ["tabs"], description: "Per-tab badges.")),
            ("reason", record([
                ("description", string("What the reason means.")),
            ], description: "A suppression reason.")),
            ("route", record([
                ("url", string("The URL template (required): starts with the app's scheme (or `https://`); `{name}` placeholders are params.")),
                ("params", ref("routeParams", "The route's params; every one must appear in `url`.")),
                ("description", string("Documentation only.")),
            ], required: ["url"], description: "A typed deep-link template.")),
            ("type", record([
                ("category", ref("identifier", "The type's category (required).")),
                ("channels", list(ref("identifier"), "Channel names in preference order (required).", minItems: 1)),
                ("fallback", ref("identifier", "The channel used when permission is denied.")),
                ("default", boolean("On for users who never chose (default true).")),
                ("description", string("Documentation only.")),
                ("params", ref("params", "The trigger's parameters (`type`, `subject` and `localDate` are reserved).")),
                ("eligible", ref("boolExpression", "`ineligible` when false (default always).")),
                ("timing", ref("timing", "When the type is due (default `{ at: immediate }`).")),
                ("caps", list(ref("cap"), "The type's caps (`scope` defaults to `type`).")),
                ("suppress", list(ref("typeSuppressRule"), "The type's suppression rules, evaluated in order.")),
                ("dedupe", ref("typeDedupe", "Deduplication: `duplicate` for the same key within the window.")),
                ("idempotencyKey", ref("template", "The decision's `key` (default `{type}:{subject}:{localDate}`).")),
                ("subject", ref("template", "What per-subject caps count by (default the request's `subject`).")),
                ("critical", boolean("May use the policy's critical exemptions (caps, quiet hours).")),
                ("locked", boolean("Preferences cannot turn it off (OTP).")),
                ("silent", boolean("No alert: badge only; `copy` is then optional.")),
                ("interruption", ref("interruption", "Default: the category's.")),
                ("threadId", ref("template", "Default: the category's.")),
                ("priority", integer("Higher keeps capacity first (default from the policy's `priorities`).")),
                ("copy", ref("copy", "The notification's text (required unless `silent`).")),
                ("link", ref("link", "Where tapping leads.")),
                ("delivery", enumeration(["first", "all"], "`first`: one decision on the first channel that passes (default); `all`: one decision per channel, each with its own toggles, permission and key.")),
                ("computed", map(ref("expression"), "Values derived from the request (name → expression), shown by the type's templates as `{name}` like params.", names: "fieldName")),
            ] + renderKeyProperties + [
                ("payload", map(ref("template"), "Extra fields for the app: key → template over the type's params, rendered as `notification.payload`.", names: "fieldName")),
            ], required: ["category", "channels"], description: "A notification type.", extra: [
                ("if", object([
                    ("properties", object([("silent", object([("const", .bool(true))]))])),
                    ("required", .array([.string("silent")])),
                ])),
                ("else", object([("required", .array([.string("copy")]))])),
            ])),
        ]
    }

    // MARK: - Policy sections

    /// The top-level policy properties, in docs/language.md's order.
    static var policySections: [(String, JSONOutput)] {
        [
            ("catalog", string("The catalog directory, relative to the policy directory (`../../catalog/<app>`).")),
            ("name", string("The policy's name (defaults to the bundle directory's name).")),
            ("description", string("Documentation only.")),
            ("defaults", ref("defaults", "The user's preferences when the request leaves them out.")),
            ("quietHours", ref("quietHours", "The treatment of quiet hours.")),
            ("caps", list(ref("cap"), "Policy caps, in order.")),
            ("cooldowns", list(ref("cooldown"), "Shorthand for caps with `cooldown:`; they join the caps after `caps`.")),
            ("backoff", list(ref("backoff"), "Back-offs: when a condition over the history first holds, an effect for a duration from that instant.")),
            ("suppress", list(ref("policySuppressRule"), "Policy-wide suppression rules, evaluated after the type's own.")),
            ("dedupe", ref("policyDedupe", "Deduplication defaults.")),
            ("batching", map(ref("batchGroup"), "Batch groups: name → group.")),
            ("digests", map(ref("digest"), "Summaries delivered at a local time: name → digest.")),
            ("priorities", ref("names", "Types or categories, highest first: who keeps capacity when caps bind.")),
            ("dst", ref("dst", "Daylight-saving transitions.")),
            ("content", ref("content", "Content rules checked on every title, body and lock-screen variant.")),
            ("prompt", ref("prompt", "When the app may ask for OS notification permission: `ask` or `wait`, with a reason.")),
            ("exemptions", ref("exemptions", "What the escape hatches skip: `locked` (preference verdicts) and `critical` (stages).")),
            ("plan", ref("plan", "What `plan` returns at most: `horizon` (default and bound of a plan request's) and `maxPending`.")),
            ("provisional", enumeration(["passive", "granted"],
                                        "A provisional OS permission: `passive` delivers quietly (interruption `passive`, no sound, no badge); `granted` (default) as if granted.")),
        ]
    }

    /// The places of the policy whose keys are fixed (named as in `LanguageKeys.places`).
    static var policyPlaces: [(String, JSONOutput)] {
        [
            ("defaults", record([
                ("timezone", string("An IANA zone name (default `UTC`).")),
                ("reminderTime", ref("timeOfDay", "The daily reminder time (default `\"19:00\"`).")),
                ("quietHours", anyOf([
                    object([("type", .string("null"))]),
                    ref("quietHoursWindow"),
                ], "Quiet hours `{ start, end }`, or null for none (default none).")),
                ("trainingDays", list(ref("weekday"), "The user's training days (default none).")),
                ("maxPerDay", integer("The user's soft daily maximum (default none).", minimum: 0)),
                ("pausedAll", boolean("All notifications paused (default false).")),
            ], description: "The user's preferences when the request leaves them out.")),
            ("plan", record([
                ("horizon", ref("duration", "The plan's horizon: the default of a plan request's, and its bound (at most 366 days).")),
                ("maxPending", integer("The most deliveries a plan returns (the OS's pending limit); highest priority first.", minimum: 1)),
            ], description: "What `plan` returns at most.")),
            ("quietHours", record([
                ("during", enumeration(["defer", "suppress", "passive"], "`defer` to the end of quiet hours (default), `suppress` (reason `quiet_hours`), or `passive`: deliver at once, quietly (reason `quiet_hours_passive`).")),
                ("bypass", ref("names", "Types or categories that ignore quiet hours (default none).")),
            ], description: "The treatment of quiet hours.")),
            ("policyDedupe", record([
                ("window", ref("duration", "The default dedupe window for types that declare none.")),
            ], description: "Deduplication defaults.")),
            ("batchGroup", record([
                ("window", ref("duration", "Members triggered within this window of the first are delivered as one (required).")),
                ("members", list(ref("identifier"), "Types batched together (required; at least one).", minItems: 1)),
                ("by", enumeration(["threadId"], "`threadId`: one batch per thread; the first member of a thread is delivered at once and opens it (`H0288` otherwise).")),
                ("copy", ref("copy", "The batch's text (required); may use `{count}`, `{others}` (count − 1), `{first}` (the first member's body), `{first.<param>}` (a param of the first member, declared alike by every type the group holds), and `{thread}` with `by: threadId`.")),
                ("link", ref("link", "Where tapping the batch leads (with `by: threadId`, default: the first member's link).")),
                ("threadId", ref("template", "The flushed batch's thread id; may use `{type}` (the first member's type), and `{thread}` with `by: threadId`. Default: the group name (with `by: threadId`, the members' thread).")),
                ("interruption", ref("interruption", "The flushed batch's interruption level (default `active`).")),
            ], required: ["window", "members", "copy"], description: "A batch group.")),
            ("backoff", record([
                ("id", ref("identifier", "Named in decisions and traces (default `backoff[<n>]`).")),
                ("match", ref("names", "Types or categories it applies to (default all).")),
                ("by", enumeration(["category", "type"], "What the condition and the effect count together (default `category`).")),
                ("when", ref("backoffWhen", "The condition (required).")),
                ("for", ref("duration", "How long it lasts from the instant the condition first held (required).")),
                ("then", anyOf([enumeration(["suppress"]), ref("backoffCap")], "`suppress`, or a cap of the scope: `{ max, per }` (required).")),
                ("reason", string("The reason code of what it holds back (required; built-in or the catalog's).")),
            ], required: ["when", "for", "then", "reason"], description: "A back-off.")),
            ("backoffWhen", record([
                ("dismissed", integer("Count entries reported `dismissed` (exactly one of `dismissed`, `ignored`).", minimum: 1)),
                ("ignored", integer("Count entries reported `delivered` or `dismissed`.", minimum: 1)),
                ("within", ref("duration", "The counted entries lie within this span (required).")),
                ("opened", integer("At most this many `opened` entries of the scope in that span (default 0).", minimum: 0)),
            ], required: ["within"], description: "A back-off's condition.")),
            ("backoffCap", record([
                ("max", integer("At most this many of the scope per window.", minimum: 0)),
                ("per", anyOf([enumeration(LanguageKeys.capWindows), ref("duration")], "The window, as a cap's `per`.")),
            ], required: ["max", "per"], description: "A back-off's cap.")),
            ("digest", record([
                ("at", anyOf([ref("timeOfDay"), enumeration(["reminder_time"])],
                             "The local time the digest is delivered (required): `HH:MM`, or `reminder_time` (the user's own time).")),
                ("every", enumeration(["day", "week"], "How often the digest is delivered: `day` (default) or `week` (with `on`).")),
                ("weekday", ref("weekday", "The weekday of a weekly digest (required with `every: week`, only with it).")),
                ("members", list(ref("identifier"), "Types held for the digest on every decision (not only over a cap); each type in one digest or batch group.", minItems: 1)),
                ("copy", ref("copy", "The digest's text (required); may use `{count}`, `{others}` (count − 1), `{first}` and `{first.<param>}` (a param of the first member).")),
                ("link", ref("link", "Where tapping the digest leads.")),
                ("single", enumeration(["member", "summary"], "With one member: deliver it (`member`, default) or the digest's own copy (`summary`).")),
                ("threadId", ref("template", "The flushed digest's thread id; may use `{type}` (the first member's type). Default: the digest name.")),
                ("interruption", ref("interruption", "The flushed digest's interruption level (default `active`).")),
            ], required: ["at", "copy"], description: "A digest.")),
            ("dst", record([
                ("gap", enumeration(["next_valid_minute"], "A local time that does not exist, spring forward (default `next_valid_minute`).")),
                ("overlap", enumeration(["first"], "A local time that occurs twice, fall back (default `first`).")),
            ], description: "Daylight-saving transitions.")),
            ("content", record([
                ("maxLength", integer("Warning `H0505` above this many characters.", minimum: 1)),
                ("banned", list(.object([("type", .string("string"))]), "Banned words and phrases (error `H0506`; whole words, any case).")),
                ("review", list(.object([("type", .string("string"))]), "Words and phrases allowed only in some contexts (warning `H0286` asking for review; whole words, any case).")),
            ], description: "Content rules checked on every title, body and lock-screen variant.")),
            ("prompt", record([
                ("wait", list(ref("promptRule"), "Wait rules, in order: the first true one answers `wait` with its reason; none true answers `ask` (`eligible`).")),
                ("description", string("Documentation only.")),
            ], description: "When the app may ask for OS notification permission. Permission `granted` always waits (`already_granted`), `denied` always waits (`denied_before`).")),
            ("exemptions", record([
                ("locked", list(enumeration(["paused_all", "category_off", "type_off", "channel_off"]),
                                "Preference verdicts a locked type or category skips (default all four).")),
                ("critical", list(enumeration(["caps", "quiet_hours", "training_days"]),
                                  "What a `critical: true` type skips: the policy's global caps, quiet hours, training days (default `[training_days]`).")),
            ], description: "What `locked` and `critical` skip.")),
            ("promptRule", record([
                ("id", ref("identifier", "Named in prompt decisions and traces; unique among rules; defaults to `prompt.wait[<n>]` (0-based).")),
                ("when", ref("boolExpression", "Wait while this is true (required); no `params`.")),
                ("reason", ref("identifier", "`already_granted`, `denied_before`, `missing_data` or a reason declared in `reasons` (required).")),
            ], required: ["when", "reason"], description: "A prompt wait rule.")),
        ]
    }
}
