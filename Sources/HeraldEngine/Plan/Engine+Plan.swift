import HeraldPolicy

/// A set of notifications decided together (`Engine.plan`).
public struct Plan: Sendable, Equatable {
    /// One decision per candidate, in the candidates' order (one per channel, in `channels`
    /// order, for a `delivery: all` type). Members of a batch that formed
    /// in the plan are `batch` decisions, including a member first scheduled alone.
    public var decisions: [Decision]
    /// One combined notification per batch or digest key (`flush`), ordered by key.
    public var batches: [Decision]
    /// What to deliver within the horizon: scheduled decisions and flushed batches, by
    /// delivery instant then key.
    public var deliveries: [Decision]

}

extension Engine {
    /// A plan's horizon when neither the request nor the policy gives one.
    public static let defaultPlanHorizon = 7 * 86_400

    /// Decides a set of triggers for one user together, so higher priorities keep capacity and
    /// batches form from all members.
    ///
    /// Triggers are decided in priority order (the type's `priority`, else its rank in
    /// `priorities`; ties by trigger instant, then by position), each against the user's
    /// history plus every earlier scheduled or batched decision of the plan, fed back as a
    /// `scheduled` entry. Deliveries after `now + horizon` are left out of `deliveries`, and of
    /// the rest at most the policy's `plan.maxPending` are kept (docs/decisions.md § Plan).
    /// - Parameters:
    ///   - triggers: the candidates, each from this engine.
    ///   - user: the user's context, shared by every candidate.
    ///   - horizon: seconds; nil: the policy's `plan.horizon`, else 7 days. A horizon longer
    ///     than the policy's is cut to it (the policy states what the app can hold).
    /// - Returns: the plan, or every problem with the candidates (`candidates[i].…` paths).
    public func plan(_ triggers: [Trigger], for user: UserContext, now: Int, horizon: Int?) -> Result<Plan, RequestErrors> {
        let limits = bundle.plan
        let horizon = min(horizon ?? limits.horizon ?? Self.defaultPlanHorizon, limits.horizon ?? Int.max)
        // Sort keys computed once per candidate (priority lookups stay out of the n log n comparisons).
        let keys = triggers.indices.map { i in (priority: tables[triggers[i].type]?.priority ?? 0, at: triggers[i].at, index: i) }
        let order = keys.sorted { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if a.at != b.at { return a.at < b.at }
            return a.index < b.index
        }.map(\.index)
        var decisions = [[Decision]](repeating: [], count: triggers.count)
        var errors: [RequestError] = []
        // One index of the user's history, with each fed decision inserted.
        var ledger = LedgerIndex(user.history, categories: categoryOfType)
        for index in order {
            let trigger = triggers[index]
            // A `delivery: all` candidate is decided once per channel, each against the same
            // ledger (siblings do not count against each other), then all are fed.
            let channels = tables[trigger.type].map { $0.deliversAll ? $0.channelChoices.count : 0 } ?? 0
            for channel in channels == 0 ? [-1] : Array(0 ..< channels) {
                switch decideOne(trigger, user: user, ledger: ledger, now: now, channel: Int16(channel)) {
                case .failure(let problems):
                    errors += problems.errors.map { RequestError(path: "candidates[\(index)].\($0.path)", message: $0.message) }
                case .success(let decision):
                    decisions[index].append(decision)
                    continue
                }
                break
            }
            for decision in decisions[index] where decision.action != .suppress {
                if let key = decision.key, let at = decision.deliverAt {
                    ledger.insert(HistoryEntry(key: key, type: decision.type, subject: decision.subject,
                                               channel: decision.channel, deliverAt: at, status: .scheduled,
                                               batchKey: decision.batch?.key))
                }
            }
        }
        guard errors.isEmpty else { return .failure(RequestErrors(errors.sorted { $0.path < $1.path })) }
        var result = decisions.flatMap { $0 }
        // Each decision's trigger instant: a batch's members are flushed in trigger order, so its
        // first member (`{first}`, `{first.<param>}`) is the earliest, whatever the candidates' order.
        let triggeredAt = decisions.indices.flatMap { i in decisions[i].map { _ in triggers[i].at } }
        // A member scheduled alone at a batch's start joins the batch that formed around it.
        // Members are grouped by batch key once, and lone scheduled decisions by instant, so
        // this is O(n log n) however many batches form.
        var membersByKey: [String: [Int]] = [:]
        var aloneAt: [Int: [Int]] = [:]
        for i in result.indices {
            if let key = result[i].batch?.key {
                membersByKey[key, default: []].append(i)
            } else if result[i].action == .schedule, let at = result[i].deliverAt {
                aloneAt[at, default: []].append(i)
            }
        }
        // A thread's batch (`by: threadId`) is opened by a member scheduled alone that carries
        // its key: with later members it joins the batch, alone it stays a schedule.
        for (key, members) in membersByKey where members.allSatisfy({ result[$0].action == .schedule }) {
            membersByKey[key] = nil
        }
        for members in membersByKey.values {
            for i in members where result[i].action == .schedule { Self.join(&result[i]) }
        }
        let batchKeys = membersByKey.keys.sorted()
        for batch in batchKeys {
            guard let sample = result[membersByKey[batch]![0]].batch,
                  let group = bundle.batching[sample.group] else { continue }
            let start = sample.flushAt - group.window
            for i in aloneAt[start] ?? [] where result[i].action == .schedule && result[i].batch == nil
                && group.members.contains(result[i].type) && batch.hasSuffix(":" + ContractTime.format(start)) {
                result[i].action = .batch
                result[i].reason = "batched"
                result[i].batch = sample
                result[i].deliverAt = sample.flushAt
                membersByKey[batch]!.append(i)
            }
        }
        // A batch a cap collects over its window moves its flush with each member: every
        // member of a batch is delivered at the batch's latest flush.
        for key in batchKeys {
            let members = membersByKey[key]!
            let flushAt = members.compactMap { result[$0].batch?.flushAt }.max()
            for i in members { if let flushAt, result[i].batch?.flushAt != flushAt {
                result[i].batch?.flushAt = flushAt
                result[i].deliverAt = flushAt
            } }
        }
        var batches: [Decision] = []
        for key in batchKeys {
            let members = membersByKey[key]!.sorted { (triggeredAt[$0], $0) < (triggeredAt[$1], $1) }.map { result[$0] }
            if let flushed = flush(key, members: members) { batches.append(flushed) }
        }
        let limit = now.addingReportingOverflow(horizon).overflow ? Int.max : now + horizon
        var deliveries = (result.filter { $0.action == .schedule } + batches)
            .filter { ($0.deliverAt ?? Int.max) <= limit }
        if let most = limits.maxPending, deliveries.count > most {
            // Over the app's pending limit: the highest priorities stay, then the soonest.
            let ranked = deliveries.map { (priority: tables[$0.type]?.priority ?? 0, decision: $0) }
            deliveries = ranked.sorted { a, b in
                if a.priority != b.priority { return a.priority > b.priority }
                return (a.decision.deliverAt ?? 0, a.decision.key ?? "") < (b.decision.deliverAt ?? 0, b.decision.key ?? "")
            }.prefix(most).map(\.decision)
        }
        deliveries.sort { ($0.deliverAt ?? 0, $0.key ?? "") < ($1.deliverAt ?? 0, $1.key ?? "") }
        return .success(Plan(decisions: result, batches: batches, deliveries: deliveries))
    }

    /// The decisions a flush of `batchKey` delivers, among decisions made one at a time (in
    /// their order): those in that batch, and before them a member type's decision scheduled
    /// alone at the batch's start (its history entry formed the batch), joined to the batch as
    /// `plan` joins it.
    public func batchMembers(of batchKey: String, among decisions: [Decision]) -> [Decision] {
        var inBatch = decisions.filter { $0.batch?.key == batchKey }
        // The member that opened a thread's batch (scheduled alone, carrying its key) joins it.
        if inBatch.contains(where: { $0.action == .batch }) {
            for i in inBatch.indices where inBatch[i].action == .schedule { Self.join(&inBatch[i]) }
        } else {
            inBatch = []
        }
        guard let sample = inBatch.first?.batch, let group = bundle.batching[sample.group] else { return inBatch }
        let start = sample.flushAt - group.window
        guard batchKey.hasSuffix(":" + ContractTime.format(start)) else { return inBatch }
        // As `plan` does, the lone member joins: it is delivered with the batch, under its key.
        let alone = decisions.filter {
            $0.action == .schedule && $0.batch == nil && $0.deliverAt == start && group.members.contains($0.type)
        }.map { decision in
            var joined = decision
            joined.action = .batch
            joined.reason = "batched"
            joined.batch = sample
            joined.deliverAt = sample.flushAt
            return joined
        }
        return alone + inBatch
    }

    /// A schedule decision that opened a thread's batch, as a member of that batch.
    static func join(_ decision: inout Decision) {
        guard let batch = decision.batch else { return }
        decision.action = .batch
        decision.reason = "batched"
        decision.deliverAt = batch.flushAt
    }

    /// One notification for a batch or digest: with one member, that member's own
    /// notification; with more, the group's copy and link (`{count}` members, `{others}` the
    /// count − 1, `{first}` the first member's body, `{first.<param>}` a param the first member
    /// carries in `notification.batchParams`), delivered at the batch's flush time under the
    /// batch key.
    /// - Returns: nil when `members` is empty.
    public func flush(_ batchKey: String, members: [Decision]) -> Decision? {
        guard let first = members.first else { return nil }
        let flushAt = members.compactMap { $0.batch?.flushAt }.max() ?? first.deliverAt ?? 0
        var decision = first
        decision.action = .schedule
        decision.reason = "batched"
        decision.deliverAt = flushAt
        decision.batch = nil
        decision.cap = nil
        decision.key = batchKey
        let groupName = first.batch?.group ?? ""
        let digest = bundle.digests[groupName]
        // A digest declared `single: summary` stays a summary with one member.
        if members.count == 1, digest?.single != .summary {
            decision.trace = [TraceStep(stage: .batching, outcome: .pass, detail: "flushed `\(batchKey)` with its only member")]
            // The params it carried for a group's copy are not part of what is delivered.
            if var n = decision.notification, var p = n.presentation, !p.batchParams.isEmpty {
                p.batchParams = []
                n.presentation = p
                decision.notification = n
            }
            return decision
        }
        let copy: Copy?
        let link: Link?
        let span: String?
        let threadId: MessageTemplate?
        if let group = bundle.batching[groupName] {
            (copy, link, span, threadId) = (group.copy, group.link, group.span.citation, group.threadId)
        } else if let digest {
            (copy, link, span, threadId) = (digest.copy, digest.link, digest.span.citation, digest.threadId)
        } else {
            (copy, link, span, threadId) = (nil, nil, nil, nil)
        }
        var values: [String: Value] = [
            "count": .int(members.count), "others": .int(members.count - 1), "first": .string(first.notification?.body ?? ""),
            "type": .string(first.type), "subject": .string(batchKey),
            "thread": .string(first.notification?.threadId ?? ""),
        ]
        // `{first.<param>}`: the params the first member carries for it (absent: empty text).
        for (name, value) in first.notification?.presentation?.batchParams ?? [] { values["first." + name] = value }
        var n = Decision.Notification()
        n.title = copy?.title?.render(values)
        n.subtitle = copy?.subtitle?.render(values)
        n.body = copy?.body?.render(values) ?? "\(members.count) notifications"
        n.lockscreen = copy?.lockscreen?.render(values) ?? n.body
        // A thread's batch stays in its members' thread, and goes where its first member goes,
        // unless the group names a thread id or a link.
        let byThread = bundle.batching[groupName]?.byThread ?? false
        n.link = link == nil && byThread ? first.notification?.link : renderLink(link, values: values)
        n.threadId = threadId?.render(values) ?? (byThread ? first.notification?.threadId ?? groupName : groupName)
        n.interruptionLevel = (bundle.batching[groupName]?.interruption ?? digest?.interruption ?? .active).rawValue
        n.badge = members.compactMap { $0.notification?.badge }.last
        // The tab badges go with the badge: the latest member's.
        if let badges = members.compactMap({ $0.notification?.presentation?.badges }).last(where: { !$0.isEmpty }) {
            n.presentation = Decision.Presentation(badges: badges)
        }
        decision.notification = n
        decision.key = batchKey
        decision.rule = span.map { Decision.Rule(id: "batching.\(groupName)", source: $0) }
        decision.trace = [TraceStep(stage: .batching, outcome: .pass, rule: "batching.\(groupName)", source: span,
                                    detail: "flushed `\(batchKey)` with \(members.count) members")]
        return decision
    }
}

extension Decision {
    /// The decision as a `scheduled` ledger entry (what a caller stores after acting on it).
    public func historyEntry(subject: String? = nil) -> HistoryEntry? {
        guard action != .suppress, let key, let deliverAt else { return nil }
        return HistoryEntry(key: key, type: type, subject: subject, channel: channel, deliverAt: deliverAt,
                            status: .scheduled, batchKey: batch?.key)
    }
}
