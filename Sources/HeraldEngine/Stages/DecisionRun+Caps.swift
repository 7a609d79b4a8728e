import HeraldPolicy
import HeraldSyntax

extension DecisionRun {
    // MARK: 8. Caps

    /// Checks every applicable cap in order at `deliverAt`. A `defer` cap moves the
    /// notification to the earliest instant with capacity (then quiet hours apply again and
    /// every cap is checked anew); the first other verdict wins.
    mutating func checkCaps() -> Verdict? {
        if !table.backoffs.isEmpty, let verdict = checkBackoffs() { return verdict }
        if table.caps.isEmpty {
            step(.caps, .skip)
            return nil
        }
        var deferred = false
        var rounds = 0
        round: while rounds < 64 {
            rounds += 1
            // Several caps usually count the same local day: its bounds are computed once a round.
            dayWindow = zone.window(.day, containing: deliverAt)
            var start = 0
            while let hit = firstOver(from: start, at: deliverAt) {
                // Only a cap that is over is read with a counted reference.
                let plan = table.capPlans[hit.index]
                start = hit.index + 1
                let scopes = hit.scopes ?? plan.fixedScopes ?? []
                let note = hit.note
                let reason = plan.reason
                switch plan.over {
                case .suppress:
                    return Verdict(reason: reason, citation: plan.citation, cap: plan.id, detail: note)
                case .defer:
                    guard let next = nextFree(plan, scopes: scopes, from: deliverAt), next > deliverAt else {
                        return Verdict(reason: reason, citation: plan.citation, cap: plan.id,
                                       detail: TraceFormat.append(note, "; no later instant has room"))
                    }
                    capMoves.append((plan.id, deliverAt, next))
                    deliverAt = next
                    scheduleReason = .burstSpacing
                    timingRule = plan.citation
                    deferred = true
                    if let verdict = applyQuietHours() {
                        return verdict
                    }
                    continue round
                case .batch(let groupName):
                    // A later cap over with a digest wins over a batch (docs/decisions.md
                    // § Which overflow wins): the digest is the longer hold.
                    if let (digestPlan, digestNote, name) = laterDigest(after: hit.index, at: deliverAt),
                       let digest = engine.bundle.digests[name]
                    {
                        batch = digestSlot(digest, at: deliverAt)
                        return Verdict(reason: .batched, citation: digestPlan.citation, cap: digestPlan.id,
                                       detail: TraceFormat.append(digestNote, "; held for digest `\(name)` (over `\(plan.id)` too, whose batch it outranks)"))
                    }
                    guard let group = engine.bundle.batching[groupName] else { continue }
                    batch = batchSlot(BatchPlan(group), at: deliverAt, forced: true, collecting: collectingRange(plan, at: deliverAt))
                    return Verdict(reason: .batched, citation: plan.citation, cap: plan.id,
                                   detail: TraceFormat.append(note, "; batched into `\(groupName)`"))
                case .digest(let name):
                    guard let digest = engine.bundle.digests[name] else { continue }
                    batch = digestSlot(digest, at: deliverAt)
                    return Verdict(reason: .batched, citation: plan.citation, cap: plan.id,
                                   detail: TraceFormat.append(note, "; held for digest `\(name)`"))
                }
            }
            break
        }
        if let verdict = checkExpiry() { return verdict }
        if deferred {
            let moves = capMoves, zone = zone
            step(.caps, .pass, timingRule, detail: .lazy {
                moves.map { "`\($0.cap)` deferred \(TraceFormat.localClock($0.from, zone)) → \(TraceFormat.localClock($0.to, zone))" }
                    .joined(separator: "; ")
            })
        } else {
            step(.caps, .pass, note: .capsHaveRoom(Int32(truncatingIfNeeded: table.caps.count)))
        }
        return nil
    }

    /// The first cap after `index` that is over at `t` and holds for a digest, with its note
    /// and digest name.
    func laterDigest(after index: Int, at t: Int) -> (CapPlan, TraceText, String)? {
        var start = index + 1
        while let hit = firstOver(from: start, at: t) {
            let plan = table.capPlans[hit.index]
            if case .digest(let name) = plan.over { return (plan, hit.note, name) }
            start = hit.index + 1
        }
        return nil
    }

    /// The instants whose over-cap members a cap's batch collects: the cap's counting window
    /// ending at `t` (nil for a cooldown without `per`).
    func collectingRange(_ plan: CapPlan, at t: Int) -> Range<Int>? {
        guard let per = plan.per else { return nil }
        if case .duration(let d) = per { return (t - d + 1) ..< (t + 1) }
        return countRange(per, at: t)
    }

    /// The first instant a cooldown that began at `start` no longer holds: `cooldown` seconds
    /// later, or (written in days) the same local wall-clock time that many local days later.
    @inline(__always)
    func cooldownEnd(_ plan: CapPlan, after start: Int, _ cooldown: Int) -> Int {
        guard let days = plan.cooldownDays else { return start + cooldown }
        return zone.addingLocalDays(days, to: start)
    }

    /// The ledger scopes a cap counts for this notification, or nil when it does not apply.
    /// Scopes that depend only on the bundle are resolved once per type (`TypeTable.capScopes`).
    func scopes(of plan: CapPlan) -> [LedgerScope.Key]? {
        if let fixed = plan.fixedScopes { return fixed }
        let cap = plan.cap
        switch cap.scope {
        case .channel:
            guard let channel else { return nil }
            if cap.owner == nil, !cap.match.isEmpty, !cap.match.contains(channel.name) { return nil }
            return [LedgerScope.Key(.channel(channel.name))]
        case .subject:
            guard let subject = context.subject else { return nil }
            if let owner = cap.owner { return [LedgerScope.Key(.typeSubject(type: owner, subject: subject))] }
            return [LedgerScope.Key(.subject(subject))]
        default:
            return TypeTable.fixedScopes(of: cap, type: type, bundle: engine.bundle).map(LedgerScope.Key.init)
        }
    }

    /// The ledger a cap counts with: the request's, or one over the cap's own `counts:`.
    func ledger(for plan: CapPlan) -> LedgerIndex {
        if plan.defaultCounts, ledger.countsDefaults {
            return ledger
        }
        let cap = plan.cap
        let statuses = Set(cap.counts.compactMap { HistoryEntry.Status(rawValue: $0.rawValue) })
        if statuses == ledger.counting { return ledger }
        return LedgerIndex(ledger.entries, counting: statuses, categories: engine.categoryOfType)
    }

    func limit(of plan: CapPlan) -> Int? {
        if let n = plan.fixedMax { return n }
        guard let max = plan.maxEval else { return nil }
        return borrowing { _, context in
            if case .int(let n) = max.evaluate(context) { return n }
            return nil
        }
    }

    /// What checking a cap found.
    enum CapCheck {
        /// The cap does not bind (no limit: an absent `prefs.maxPerDay`).
        case unbound
        case room
        /// One more would break it; the note is formatted when read.
        case over(TraceText)
    }

    /// The first cap from `start` on (in `table.capPlans`) that one more notification at `t`
    /// would break, with its note and, when they depend on the request, the scopes it counted;
    /// nil when every cap has room. Read-only, with the table, the context and the request's
    /// ledger borrowed: checking caps that have room counts no reference.
    func firstOver(from start: Int, at t: Int) -> (index: Int, note: TraceText, scopes: [LedgerScope.Key]?)? {
        borrowing { table, context in
            let ownCountsDefaults = ledger.countsDefaults
            for index in start ..< table.capPlanRefs.count {
                let found = table.capPlanRefs.withElement(index) { plan -> (note: TraceText, scopes: [LedgerScope.Key]?)? in
                    let check: CapCheck
                    let resolved: [LedgerScope.Key]?
                    if plan.hasFixedScopes {
                        let fixed = plan.fixedScopeBuffer.buffer
                        resolved = nil
                        check = plan.defaultCounts && ownCountsDefaults
                            ? isOver(plan, scopes: fixed, at: t, in: ledger) : isOver(plan, scopes: fixed, at: t)
                    } else {
                        guard let scopes = self.scopes(of: plan) else { return nil }
                        resolved = scopes
                        check = scopes.withUnsafeBufferPointer { scopes in
                            plan.defaultCounts && ownCountsDefaults
                                ? isOver(plan, scopes: scopes, at: t, in: ledger) : isOver(plan, scopes: scopes, at: t)
                        }
                    }
                    guard case .over(let note) = check else { return nil }
                    return (note, resolved)
                }
                if let found { return (index, found.note, found.scopes) }
            }
            return nil
        }
    }

    /// `isOver` with the scopes as an array.
    func isOver(_ plan: CapPlan, scopes: [LedgerScope.Key], at t: Int) -> CapCheck {
        scopes.withUnsafeBufferPointer { isOver(plan, scopes: $0, at: t) }
    }

    /// Whether one more notification at `t` would break the cap, with a note (formatted when
    /// read).
    func isOver(_ plan: CapPlan, scopes: UnsafeBufferPointer<LedgerScope.Key>, at t: Int) -> CapCheck {
        // The request's own ledger is read where it is (no copy of the index per cap).
        if plan.defaultCounts, ledger.countsDefaults { return isOver(plan, scopes: scopes, at: t, in: ledger) }
        return isOver(plan, scopes: scopes, at: t, in: ledger(for: plan))
    }

    func isOver(_ plan: CapPlan, scopes: UnsafeBufferPointer<LedgerScope.Key>, at t: Int, in index: borrowing LedgerIndex) -> CapCheck {
        if let cooldown = plan.cooldown {
            for scope in scopes {
                if let last = index.last(scope, before: t + 1), t < cooldownEnd(plan, after: last, cooldown) {
                    let zone = zone
                    return .over(.lazy { "last in \(scope.scope) at \(TraceFormat.localClock(last, zone)), cooldown \(TraceFormat.duration(cooldown))" })
                }
                if let next = index.first(scope, atOrAfter: t), next < cooldownEnd(plan, after: t, cooldown) {
                    let zone = zone
                    return .over(.lazy { "next in \(scope.scope) at \(TraceFormat.localClock(next, zone)), cooldown \(TraceFormat.duration(cooldown))" })
                }
            }
            if plan.per == nil { return .room }
        }
        guard let per = plan.per, let max = limit(of: plan) else { return .unbound }
        let range = countRange(per, at: t)
        var count = 0
        for i in scopes.indices { count += index.count(scopes[i], in: range) }
        guard count >= max else { return .room }
        let used = count
        return .over(.lazy { "\(used) of \(max) per \(TraceFormat.describe(per)) used" })
    }

    /// The instants counted against one more notification at `t`. A rolling window counts
    /// `(t - d, t + d)`: every `d`-long window holding `t` lies inside it, so no window can
    /// exceed the cap once scheduled items are fed back.
    func countRange(_ per: CapWindow, at t: Int) -> Range<Int> {
        switch per {
        case .day:
            // The caps stage computes the day of the instant it checks once a round.
            if let cached = dayWindow, cached.contains(t) { return cached }
            return zone.window(.day, containing: t)
        case .week: return zone.window(.week, containing: t)
        case .previousSevenDays:
            // The week window of the last instant of yesterday: the seven local days before today.
            let today = zone.window(.day, containing: t)
            return zone.window(.week, containing: today.lowerBound - 1)
        case .calendarWeek: return zone.window(.calendarWeek, containing: t)
        case .month: return zone.window(.month, containing: t)
        case .year: return zone.window(.year, containing: t)
        case .lifetime: return Int.min ..< Int.max
        case .duration(let d): return (t - d + 1) ..< (t + d)
        }
    }

    /// The earliest instant after `t` at which the cap has room, or nil (lifetime caps).
    func nextFree(_ plan: CapPlan, scopes: [LedgerScope.Key], from t: Int) -> Int? {
        let index = ledger(for: plan)
        var candidate = t
        for _ in 0 ..< 512 {
            guard case .over = isOver(plan, scopes: scopes, at: candidate) else { return candidate }
            var next: Int?
            if let cooldown = plan.cooldown {
                for scope in scopes {
                    if let last = index.last(scope, before: candidate + 1), candidate < cooldownEnd(plan, after: last, cooldown) {
                        next = Swift.max(next ?? Int.min, cooldownEnd(plan, after: last, cooldown))
                    }
                    if let after = index.first(scope, atOrAfter: candidate), after < cooldownEnd(plan, after: candidate, cooldown) {
                        next = Swift.max(next ?? Int.min, cooldownEnd(plan, after: after, cooldown))
                    }
                }
            }
            if next == nil, let per = plan.per {
                switch per {
                case .lifetime: return nil
                case .previousSevenDays:
                    // The window moves on at the next local midnight.
                    next = zone.window(.day, containing: candidate).upperBound
                case .duration(let d):
                    // The window empties as entries leave it: the earliest `x + d > candidate`
                    // over the entries `x` in `(candidate - d, candidate + d)`.
                    var best: Int?
                    for scope in scopes {
                        var x = index.first(scope, atOrAfter: candidate - d + 1)
                        while let e = x, e < candidate + d {
                            if e + d > candidate { best = Swift.min(best ?? Int.max, e + d) ; break }
                            x = index.first(scope, atOrAfter: e + 1)
                        }
                    }
                    next = best
                default:
                    next = countRange(per, at: candidate).upperBound
                }
            }
            guard let n = next, n > candidate else { return nil }
            candidate = n
        }
        return nil
    }
}
