import HeraldSyntax

/// The policy sections, compiled.
struct CompiledPolicy {
    var defaults = Defaults()
    var quietHours = QuietHoursPolicy()
    var caps: [Cap] = []
    var suppress: [SuppressRule] = []
    var backoff: [Backoff] = []
    var dedupe = DedupePolicy()
    var batching = NamedTable<BatchGroup>()
    var digests = NamedTable<Digest>()
    var priorities: [PriorityEntry] = []
    var dst = DSTPolicy()
    var content = ContentRules()
    var exemptions = Exemptions()
}

extension Compilation {
    mutating func compilePolicy(types: NamedTable<NotificationType>) -> CompiledPolicy {
        var policy = CompiledPolicy()
        if let single = sections.singles["defaults"] { policy.defaults = compileDefaults(single.value) }
        if let single = sections.singles["exemptions"] { policy.exemptions = compileExemptions(single) }
        if let single = sections.singles["quietHours"], let f = reader.fields(single.value, LanguageKeys.quietHours) {
            policy.quietHours.span = single.key.span
            if let n = f["during"], let word = reader.word(n, what: "`quietHours.during`", allowed: ["defer", "suppress", "passive"]) {
                policy.quietHours.during = QuietHoursTreatment(rawValue: word)!
            }
            policy.quietHours.bypass = targets(f["bypass"], what: "`quietHours.bypass`", channels: false)
        }
        for (index, item) in sections.lists["caps", default: []].enumerated() {
            if let cap = compileCap(item, owner: nil, defaultID: "caps[\(index)]", place: LanguageKeys.cap) { policy.caps.append(cap) }
        }
        for (index, item) in sections.lists["cooldowns", default: []].enumerated() {
            if let cap = compileCap(item, owner: nil, defaultID: "cooldowns[\(index)]", place: LanguageKeys.cooldown) { policy.caps.append(cap) }
        }
        for (index, item) in sections.lists["suppress", default: []].enumerated() {
            if let rule = compileRule(item, owner: nil, defaultID: "suppress[\(index)]", params: nil) { policy.suppress.append(rule) }
        }
        for (index, item) in sections.lists["backoff", default: []].enumerated() {
            if let entry = compileBackoff(item, defaultID: "backoff[\(index)]") { policy.backoff.append(entry) }
        }
        if let single = sections.singles["dedupe"], let f = reader.fields(single.value, LanguageKeys.policyDedupe) {
            policy.dedupe = DedupePolicy(window: f["window"].flatMap { reader.duration($0, what: "`dedupe.window`") }, span: single.key.span)
        }
        let groupCopy: [String: ValueType] = ["count": .int, "first": .string, "others": .int]
        // A batch's or digest's thread id names a thread, not a count: `{type}` only.
        let groupThread: [String: ValueType] = ["type": .string]
        for pair in sections.named["batching", default: []] {
            let name = pair.key.value
            reader.checkIdentifier(name, at: pair.key.span, what: "batch group")
            guard let f = reader.fields(pair.value, LanguageKeys.batchGroup, owner: name, ownerSpan: pair.key.span) else { continue }
            let window = f["window"].flatMap { reader.duration($0, what: "`window`") }
            var members: [String] = []
            if let n = f["members"], let names = reader.names(n, what: "`members`") {
                if names.isEmpty, n.sequence != nil {
                    reader.diagnostics.error(.emptyList, "batch group `\(name)` has no members", at: n.span)
                }
                for (member, span) in names where reference(member, at: span, in: typeNames, code: .unknownType, what: "type") {
                    members.append(member)
                }
            }
            // `by: threadId` (P11): batches per thread; copy, link and thread id may name `{thread}`.
            var byThread = false
            if let n = f["by"], let s = reader.scalar(n, what: "a batch group's `by`") {
                if s.value == "threadId" {
                    byThread = true
                } else {
                    reader.diagnostics.error(.batchByUnknown, "batch group `\(name)` groups `by: \(s.value)`; a batch groups only `by: threadId`",
                                             at: n.span, suggestion: Suggestions.closest(to: s.value, in: ["threadId"]))
                }
            }
            // `{first.<param>}` (P11): a param every type the group's batches can hold declares.
            let held = typesHeld(members: members, overflow: .batch(name), types: types, policyCaps: policy.caps)
            let first = firstMemberNames(of: "batch group `\(name)`", held: held)
            let copyNames = (byThread ? groupCopy.merging(["thread": .string]) { a, _ in a } : groupCopy)
                .merging(first.allowed) { a, _ in a }
            let threadNames = byThread ? groupThread.merging(["thread": .string]) { a, _ in a } : groupThread
            templateRefusals = first.refused
            let copy = f["copy"].flatMap { compileCopy($0, owner: name, allowed: copyNames) }
            let link = f["link"].flatMap { compileLink($0, allowed: copyNames) }
            templateRefusals = [:]
            checkFirstSensitive(copy, owner: "batch group `\(name)`", sensitive: first.sensitive)
            let threadId = f["threadId"].flatMap { template($0, what: "a batch group's `threadId`", allowed: threadNames) }
            guard let window else { continue }
            var group = BatchGroup(name: name, window: window, members: members, copy: copy, link: link,
                                   threadId: threadId, span: pair.key.span)
            group.interruption = f["interruption"].flatMap { reader.enumValue($0, what: "a batch group's `interruption`", as: Interruption.self) }
            group.byThread = byThread
            group.firstParams = Self.firstParams(copy: copy, link: link)
            if !group.firstParams.isEmpty { group.firstHolders = held }
            policy.batching.insert(group, named: name)
        }
        for pair in sections.named["digests", default: []] {
            let name = pair.key.value
            reader.checkIdentifier(name, at: pair.key.span, what: "digest")
            guard let f = reader.fields(pair.value, LanguageKeys.digest, owner: name, ownerSpan: pair.key.span) else { continue }
            let at = f["at"].flatMap { digestTime($0, digest: name) }
            let members = digestMembers(f["members"], digest: name, batching: policy.batching, digests: policy.digests)
            let held = typesHeld(members: members, overflow: .digest(name), types: types, policyCaps: policy.caps)
            let first = firstMemberNames(of: "digest `\(name)`", held: held)
            templateRefusals = first.refused
            let copy = f["copy"].flatMap { compileCopy($0, owner: name, allowed: groupCopy.merging(first.allowed) { a, _ in a }) }
            let link = f["link"].flatMap { compileLink($0, allowed: groupCopy.merging(first.allowed) { a, _ in a }) }
            templateRefusals = [:]
            checkFirstSensitive(copy, owner: "digest `\(name)`", sensitive: first.sensitive)
            let single = f["single"].flatMap { reader.enumValue($0, what: "a digest's `single`", as: Digest.Single.self) } ?? .member
            let threadId = f["threadId"].flatMap { template($0, what: "a digest's `threadId`", allowed: groupThread) }
            let weekday = digestSchedule(every: f["every"], on: f["weekday"], digest: name)
            guard let at else { continue }
            var digest = Digest(name: name, at: at ?? 0, copy: copy, link: link, single: single, threadId: threadId, span: pair.key.span)
            digest.atReminderTime = at == nil
            digest.weekday = weekday
            digest.members = members
            digest.interruption = f["interruption"].flatMap { reader.enumValue($0, what: "a digest's `interruption`", as: Interruption.self) }
            digest.firstParams = Self.firstParams(copy: copy, link: link)
            if !digest.firstParams.isEmpty { digest.firstHolders = held }
            policy.digests.insert(digest, named: name)
        }
        for item in sections.lists["priorities", default: []] {
            guard let name = reader.string(item, what: "an entry of `priorities`") else { continue }
            if typeOrCategorySet.contains(name) {
                policy.priorities.append(PriorityEntry(name: name, span: item.span))
            } else {
                reader.diagnostics.error(.unknownTarget, "unknown type or category `\(name)` in `priorities`", at: item.span,
                                         suggestion: Suggestions.closest(to: name, in: typeOrCategoryTargets))
            }
        }
        if let single = sections.singles["dst"], let f = reader.fields(single.value, LanguageKeys.dst) {
            policy.dst.span = single.key.span
            if let g = f["gap"].flatMap({ reader.enumValue($0, what: "`dst.gap`", as: DSTPolicy.Gap.self) }) { policy.dst.gap = g }
            if let o = f["overlap"].flatMap({ reader.enumValue($0, what: "`dst.overlap`", as: DSTPolicy.Overlap.self) }) { policy.dst.overlap = o }
        }
        if let single = sections.singles["content"], let f = reader.fields(single.value, LanguageKeys.content) {
            policy.content.span = single.key.span
            if let n = f["maxLength"], let max = reader.int(n, what: "`content.maxLength`") {
                if max <= 0 { reader.diagnostics.error(.invalidScalar, "`content.maxLength` must be positive, found `\(max)`", at: n.span) }
                policy.content.maxLength = max
            }
            if let n = f["banned"], let names = reader.names(n, what: "`content.banned`") { policy.content.banned = names.map(\.name) }
            if let n = f["review"], let names = reader.names(n, what: "`content.review`") { policy.content.review = names.map(\.name) }
        }
        return policy
    }

    mutating func compileDefaults(_ node: YAMLNode) -> Defaults {
        var defaults = Defaults(span: node.span)
        guard let f = reader.fields(node, LanguageKeys.defaults) else { return defaults }
        defaults.keySpans = f.keySpans()
        if let n = f["timezone"], let zone = reader.string(n, what: "`defaults.timezone`") {
            if zone.isEmpty || zone.contains(" ") {
                reader.diagnostics.error(.invalidScalar, "invalid time zone `\(zone)`; write an IANA zone such as `Europe/Berlin` or `UTC`", at: n.span)
            } else {
                defaults.timezone = zone
            }
        }
        if let n = f["reminderTime"], let t = reader.timeOfDay(n, what: "`defaults.reminderTime`") { defaults.reminderTime = t }
        if let n = f["quietHours"], !n.isNull, let q = reader.fields(n, LanguageKeys.quietHoursWindow) {
            let start = q["start"].flatMap { reader.timeOfDay($0, what: "`quietHours.start`") }
            let end = q["end"].flatMap { reader.timeOfDay($0, what: "`quietHours.end`") }
            if let start, let end { defaults.quietHours = QuietHoursWindow(start: start, end: end) }
        }
        if let n = f["trainingDays"], let names = reader.names(n, what: "`defaults.trainingDays`") {
            defaults.trainingDays = names.compactMap { name, span in
                if let i = LanguageKeys.weekdays.firstIndex(of: name) { return i + 1 }
                reader.diagnostics.error(.invalidEnumValue, "invalid weekday `\(name)`; expected \(NodeReader.list(LanguageKeys.weekdays))",
                                         at: span, suggestion: Suggestions.closest(to: name.lowercased(), in: LanguageKeys.weekdays))
                return nil
            }
        }
        if let n = f["maxPerDay"], let max = reader.int(n, what: "`defaults.maxPerDay`") { defaults.maxPerDay = max }
        if let n = f["pausedAll"], let b = reader.bool(n, what: "`defaults.pausedAll`") { defaults.pausedAll = b }
        return defaults
    }
}

// MARK: Digest schedules (P8): `at: reminder_time`, `every: day | week`, `weekday: <day>`, `members`

extension Compilation {
    /// A digest's `at`: `.some(seconds)` for a time of day, `.some(nil)` for `reminder_time`,
    /// nil for anything else: H0207 for a malformed time (`"9:00"`), H0217 for a word.
    mutating func digestTime(_ node: YAMLNode, digest: String) -> Int?? {
        guard let s = reader.scalar(node, what: "a digest's `at`") else { return nil }
        if s.value == "reminder_time" { return .some(nil) }
        if s.value.contains(where: { $0.isNumber || $0 == ":" }) {
            return reader.timeOfDay(node, what: "a digest's `at`").map { .some($0) }
        }
        reader.diagnostics.error(.digestInvalidAt,
                                 "digest `\(digest)` is delivered at `\(s.value)`, which is neither a time of day nor `reminder_time`",
                                 at: node.span, notes: [.init("write a quoted 24-hour time (`\"09:00\"`) or `reminder_time`, the user's own time")],
                                 suggestion: Suggestions.closest(to: s.value, in: ["reminder_time"]))
        return nil
    }

    /// The weekday (1 = Monday … 7 = Sunday) of a weekly digest, nil for a daily one; a weekly
    /// digest without `weekday` is H0214, `weekday` on a daily digest H0215, an unknown day H0216.
    mutating func digestSchedule(every: YAMLNode?, on: YAMLNode?, digest: String) -> Int? {
        let weekly = every.flatMap { reader.word($0, what: "a digest's `every`", allowed: ["day", "week"]) } == "week"
        var weekday: Int?
        if let on, let s = reader.scalar(on, what: "a digest's `weekday`") {
            let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            if let index = days.firstIndex(of: s.value) {
                weekday = index + 1
            } else {
                reader.diagnostics.error(.digestUnknownWeekday, "digest `\(digest)` is delivered on `\(s.value)`, which is not a weekday",
                                         at: on.span, notes: [.init("weekdays are written `mon`, `tue`, `wed`, `thu`, `fri`, `sat`, `sun`")],
                                         suggestion: days.contains(String(s.value.lowercased().prefix(3)))
                                             ? String(s.value.lowercased().prefix(3)) : Suggestions.closest(to: s.value, in: days))
            }
            if !weekly {
                reader.diagnostics.error(.digestDayWithoutWeek, "digest `\(digest)` names a weekday but is not weekly",
                                         at: on.span, notes: [.init("add `every: week`, or remove `weekday` for a daily digest")])
                return nil
            }
        }
        if weekly, on == nil, let every {
            reader.diagnostics.error(.digestWeekWithoutDay, "weekly digest `\(digest)` names no weekday",
                                     at: every.span, notes: [.init("add the day it is delivered, such as `weekday: mon`")])
        }
        return weekly ? weekday : nil
    }

    /// The types a digest holds on every decision: known types, each in at most one digest
    /// or batch group (H0218).
    mutating func digestMembers(_ node: YAMLNode?, digest: String, batching: NamedTable<BatchGroup>, digests: NamedTable<Digest>) -> [String] {
        guard let node, let names = reader.names(node, what: "`members`") else { return [] }
        if names.isEmpty, node.sequence != nil {
            reader.diagnostics.error(.emptyList, "digest `\(digest)` has no members", at: node.span)
        }
        var members: [String] = []
        for (member, span) in names where reference(member, at: span, in: typeNames, code: .unknownType, what: "type") {
            if let group = batching.first(where: { $0.members.contains(member) }) {
                reader.diagnostics.error(.digestMemberTwice, "`\(member)` is a member of digest `\(digest)` and of batch group `\(group.name)`",
                                         at: span, notes: [.init("a notification is held for one group: keep it in one of them")])
            } else if let other = digests.first(where: { $0.members.contains(member) }) {
                reader.diagnostics.error(.digestMemberTwice, "`\(member)` is a member of digests `\(other.name)` and `\(digest)`",
                                         at: span, notes: [.init("a notification is held for one group: keep it in one of them")])
            } else if !members.contains(member) {
                members.append(member)
            }
        }
        return members
    }
}
