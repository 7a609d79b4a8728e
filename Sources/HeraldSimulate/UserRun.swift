import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldStore

/// One simulated user's days on a virtual clock: triggers, the daily plan, deliveries, batch
/// flushes and the user's opens and dismissals, in time order, through the real engine
/// (`decideAll`, `plan`, `flush`) against the user's own in-memory ledger.
struct UserRun {
    let engine: Engine
    let scenario: Scenario
    let index: Int
    let days: Int
    let seed: UInt64
    let keepMarks: Bool
    /// The user's world: population, triggers, params, changes. The same in every policy's run.
    var random: SimulationRandom
    /// The user's reactions, drawn apart so that a policy that delivers differently does not
    /// shift the world's draws: both runs of a diff see the same triggers.
    var reactions: SimulationRandom
    let zone: Zone
    var ledger: UserLedger
    var outcome: UserOutcome
    /// What is due later: deliveries, flushes, opens, dismissals (kept sorted by time, then order).
    var pending: [PendingEvent] = []
    var sequence = 0
    var batchMembers: [String: [Decision]] = [:]
    /// The member that opened a thread's batch (`by: threadId`), delivered at once: it joins the
    /// batch's flush when others join (docs/decisions.md § Batches by thread).
    var openers: [String: Decision] = [:]
    var uniqueCounter = 0
    let permission: Permission
    /// The day's user, converted once a day (`applyDay`); the ledger is passed apart.
    var user: Result<UserContext, RequestErrors>?
    /// The user's drawn values, before daily draws and changes.
    var userJSON: JSON
    var prefsJSON: JSON
    var stateJSON: JSON
    var changesApplied: [Bool]

    struct PendingEvent {
        enum Kind { case deliver(key: String, category: String?, mark: Int?), flush(String), open(String), dismiss(String) }
        var at: Int
        var order: Int
        var kind: Kind
    }

    init(engine: Engine, scenario: Scenario, window: LedgerWindow, index: Int, days: Int, seed: UInt64, keepMarks: Bool) {
        self.engine = engine
        self.scenario = scenario
        self.index = index
        self.days = days
        self.seed = seed
        self.keepMarks = keepMarks
        var random = SimulationRandom(seed: seed, stream: UInt64(index))
        var counter = 0
        let userID = "u\(index + 1)"
        let timezone = ValueDraw.draw(scenario.population.timezone, random: &random, user: userID, counter: &counter, at: 0)
        let zone = Zone(identifier: timezone.stringValue ?? "UTC") ?? .utc
        // An `{ instant: … }` of the population is an offset from the start of the user's first
        // simulated day (`createdAt: { instant: "-30d" }`: a month before the run), as a daily
        // one is from the start of its day; not from 1970.
        let first = Self.dayStart(0, of: scenario, in: zone)
        let permission = ValueDraw.draw(scenario.population.permission, random: &random, user: userID, counter: &counter, at: first)
        var prefs = ValueDraw.draw(scenario.population.prefs, random: &random, user: userID, counter: &counter, at: first)
        prefs = ValueDraw.merge(prefs, ["timezone": timezone])
        let user = ValueDraw.merge(["id": .string(userID)], ValueDraw.draw(scenario.population.user, random: &random, user: userID, counter: &counter, at: first))
        let state = ValueDraw.draw(scenario.population.state, random: &random, user: userID, counter: &counter, at: first)
        self.random = random
        self.reactions = SimulationRandom(seed: seed ^ 0x5EED_BEAF_0000_0001, stream: UInt64(index))
        self.uniqueCounter = counter
        self.zone = zone
        self.userJSON = user
        self.prefsJSON = prefs
        self.stateJSON = state
        self.changesApplied = Array(repeating: false, count: scenario.changes.count)
        self.permission = Permission(rawValue: permission.stringValue ?? "") ?? .unknown
        self.ledger = UserLedger(engine: engine, window: window)
        self.outcome = UserOutcome(days: days)
        outcome.userID = userID
        outcome.zone = zone.identifier
    }

    /// The first instant of simulated day `day` (0-based) in the user's zone.
    func dayStart(_ day: Int) -> Int {
        Self.dayStart(day, of: scenario, in: zone)
    }

    static func dayStart(_ day: Int, of scenario: Scenario, in zone: Zone) -> Int {
        zone.startOfDay(scenario.start + day) ?? (scenario.start + day) * 86_400
    }

    mutating func run() -> UserOutcome {
        let end = dayStart(days)
        for day in 0..<days {
            let date = scenario.start + day
            applyDay(day)
            if day == 0 { outcome.quietHours = quietHours() }
            var occurrences = triggers(on: date, day: day)
            occurrences.sort { ($0.at, $0.order) < ($1.at, $1.order) }
            var planned = false
            let planAt = scenario.plan.flatMap { zone.occurrence(of: $0.at, on: date) }
            for occurrence in occurrences {
                if let planAt, !planned, planAt <= occurrence.at {
                    runPlan(at: planAt, date: date)
                    planned = true
                }
                decide(occurrence)
            }
            if let planAt, !planned { runPlan(at: planAt, date: date) }
        }
        advance(to: end)
        outcome.pendingAtEnd = pending.filter { if case .deliver = $0.kind { true } else if case .flush = $0.kind { true } else { false } }.count
        return outcome
    }

    // MARK: Days and state

    /// Daily draws and the changes that start today, then the day's base request. An
    /// `{ instant: "+8h" }` drawn here is an offset from the start of the user's local day
    /// (a practice logged this morning, `-12h` yesterday's).
    mutating func applyDay(_ day: Int) {
        var state = stateJSON
        let start = dayStart(day)
        if case .object(let fields) = scenario.population.daily, !fields.isEmpty {
            state = ValueDraw.merge(state, ValueDraw.draw(scenario.population.daily, random: &random, user: outcome.userID, counter: &uniqueCounter, at: start))
        }
        for (i, change) in scenario.changes.enumerated() where change.day == day + 1 {
            changesApplied[i] = random.chance(change.share)
        }
        var user = userJSON
        var prefs = prefsJSON
        for (i, change) in scenario.changes.enumerated() where changesApplied[i] && change.day <= day + 1 {
            if let spec = change.state { state = ValueDraw.merge(state, ValueDraw.draw(spec, random: &random, user: outcome.userID, counter: &uniqueCounter, at: start)) }
            if let spec = change.user { user = ValueDraw.merge(user, ValueDraw.draw(spec, random: &random, user: outcome.userID, counter: &uniqueCounter, at: start)) }
            if let spec = change.prefs { prefs = ValueDraw.merge(prefs, ValueDraw.draw(spec, random: &random, user: outcome.userID, counter: &uniqueCounter, at: start)) }
        }
        do {
            let request = try UserRequest(json: ["user": user, "prefs": prefs, "permission": .string(permission.rawValue), "state": state])
            self.user = engine.userContext(request)
        } catch {
            outcome.noteError("population", error.description)
        }
    }

    /// The user's quiet hours, `[start, end)` in local minutes, or nil.
    func quietHours() -> [Int]? {
        let stated = try? user?.get().prefs.quietHours
        switch stated ?? nil {
        case .off: return nil
        case .window(let start, let end): return [start / 60, end / 60]
        case nil: return engine.bundle.defaults.quietHours.map { [$0.start / 60, $0.end / 60] }
        }
    }

    struct Occurrence {
        var at: Int
        var order: Int
        var trigger: Int
    }

    mutating func triggers(on date: Int, day: Int) -> [Occurrence] {
        var result: [Occurrence] = []
        let weekday = CivilDate.weekday(ofDay: date)
        for (t, trigger) in scenario.triggers.enumerated() {
            if !trigger.weekdays.isEmpty && !trigger.weekdays.contains(weekday) { continue }
            switch trigger.timing {
            case .at(let times):
                for time in times where random.chance(trigger.probability) {
                    if let at = zone.occurrence(of: time, on: date) { result.append(Occurrence(at: at, order: result.count, trigger: t)) }
                }
            case .perDay(let rate, let from, let to):
                let count = random.poisson(rate)
                for _ in 0..<count {
                    let minute = random.int(in: from..<to)
                    let second = random.int(in: 0..<60)
                    if let at = zone.occurrence(of: minute, on: date) {
                        result.append(Occurrence(at: at + second, order: result.count, trigger: t))
                    }
                }
            case .times(let instants):
                let start = dayStart(day), end = dayStart(day + 1)
                for at in instants where at >= start && at < end && random.chance(trigger.probability) {
                    result.append(Occurrence(at: at, order: result.count, trigger: t))
                }
            }
        }
        return result
    }

    // MARK: Deciding

    /// A trigger of `type` at `at`, its params and subject drawn.
    mutating func trigger(type: String, at: Int, params: ValueSpec, subject: ValueSpec?) -> Result<Trigger, RequestErrors> {
        let params = ValueDraw.draw(params, random: &random, user: outcome.userID, counter: &uniqueCounter, at: at)
        let subject = subject.map { spec in
            let value = ValueDraw.draw(spec, random: &random, user: outcome.userID, counter: &uniqueCounter, at: at)
            return value.stringValue ?? value.description
        }
        return engine.trigger(CandidateRequest(type: type, at: at, params: params, subject: subject))
    }

    /// Decides one trigger against the user's ledger.
    mutating func decide(_ occurrence: Occurrence) {
        advance(to: occurrence.at)
        let spec = scenario.triggers[occurrence.trigger]
        let made = trigger(type: spec.type, at: occurrence.at, params: spec.params, subject: spec.subject)
        guard let user else { return }
        let result = user.flatMap { user in
            made.flatMap { engine.decideAll($0, for: user, ledger: ledger.index(now: occurrence.at), now: occurrence.at) }
        }
        switch result {
        case .failure(let errors):
            outcome.noteError(spec.type, errors.description)
        case .success(let decisions):
            let subject = try? made.get().subject
            for decision in decisions { record(decision, subject: subject, triggeredAt: occurrence.at) }
        }
    }

    mutating func runPlan(at now: Int, date: Int) {
        guard let plan = scenario.plan else { return }
        advance(to: now)
        var triggers: [Trigger] = []
        var problems: [RequestError] = []
        for candidate in plan.candidates {
            guard let at = zone.occurrence(of: candidate.at, on: date) else { continue }
            switch trigger(type: candidate.type, at: max(at, now), params: candidate.params, subject: nil) {
            case .success(let made): triggers.append(made)
            case .failure(let errors): problems += errors.errors
            }
        }
        guard !triggers.isEmpty || !problems.isEmpty, let user else { return }
        outcome.plans += 1
        let result = problems.isEmpty
            ? user.flatMap { engine.plan(triggers, for: $0.with(history: ledger.entries), now: now, horizon: plan.horizon) }
            : .failure(RequestErrors(problems))
        switch result {
        case .failure(let errors):
            outcome.noteError("plan", errors.description)
        case .success(let result):
            for (decision, trigger) in zip(result.decisions, triggers) { record(decision, subject: trigger.subject, triggeredAt: trigger.at) }
        }
    }

    /// Counts a decision and acts on it: a scheduled one waits for its delivery, a batched one
    /// joins its batch (whose flush is due at the batch's flush time), a suppressed one is drawn.
    /// `subject` is the request's. The marks' notes are made only for sample users.
    mutating func record(_ decision: Decision, subject requestSubject: String?, triggeredAt: Int) {
        outcome.count(decision)
        switch decision.action {
        case .suppress:
            if keepMarks {
                mark(at: triggeredAt, kind: .suppressed, decision: decision, note: decision.rule.map { "\(decision.reason) by `\($0.id)`" } ?? decision.reason)
            }
        case .schedule:
            let subject = decision.subject ?? requestSubject
            guard var entry = decision.historyEntry(subject: subject) else { return }
            entry.subject = subject
            ledger.insert(entry)
            let at = decision.deliverAt ?? triggeredAt
            if let batch = decision.batch { openers[batch.key] = decision }
            var markIndex: Int?
            if keepMarks {
                var note = decision.reason
                if at != triggeredAt { note += ", triggered \(localTime(triggeredAt))" }
                markIndex = mark(at: at, kind: .delivered, decision: decision, note: note)
            }
            schedule(at: at, .deliver(key: entry.key, category: decision.category, mark: markIndex))
        case .batch:
            let subject = decision.subject ?? requestSubject
            guard let batch = decision.batch, var entry = decision.historyEntry(subject: subject) else { return }
            entry.subject = subject
            ledger.insert(entry)
            if keepMarks {
                mark(at: triggeredAt, kind: .batched, decision: decision, note: "\(decision.reason) into `\(batch.group)`, flushed \(localTime(batch.flushAt))")
            }
            if batchMembers[batch.key] == nil {
                batchMembers[batch.key] = []
                schedule(at: batch.flushAt, .flush(batch.key))
            }
            batchMembers[batch.key]!.append(decision)
        }
    }

    // MARK: The clock

    mutating func schedule(at: Int, _ kind: PendingEvent.Kind) {
        sequence += 1
        let event = PendingEvent(at: at, order: sequence, kind: kind)
        var low = 0, high = pending.count
        while low < high {
            let mid = (low + high) / 2
            if (pending[mid].at, pending[mid].order) < (event.at, event.order) { low = mid + 1 } else { high = mid }
        }
        pending.insert(event, at: low)
    }

    /// Runs everything due before `instant` (a trigger at the same instant sees it done).
    mutating func advance(to instant: Int) {
        while let first = pending.first, first.at <= instant {
            pending.removeFirst()
            switch first.kind {
            case .deliver(let key, let category, let markIndex):
                ledger.setStatus(.delivered, key: key, at: first.at)
                delivered(at: first.at, keys: [key], category: category, mark: markIndex)
            case .flush(let key):
                let joined = batchMembers.removeValue(forKey: key) ?? []
                let members = openers.removeValue(forKey: key).map { engine.batchMembers(of: key, among: [$0] + joined) } ?? joined
                guard let flushed = engine.flush(key, members: members) else { continue }
                for member in members { if let k = member.key { ledger.setStatus(.delivered, key: k, at: first.at) } }
                let group = members.first?.batch?.group ?? ""
                let isDigest = engine.bundle.digests[group] != nil && engine.bundle.batching[group] == nil
                outcome.flushed(isDigest: isDigest, members: members.count)
                let markIndex = keepMarks ? mark(at: first.at, kind: isDigest ? .digest : .batch, decision: flushed,
                                                 note: "\(members.count) \(members.count == 1 ? "member" : "members") of `\(group)`") : nil
                delivered(at: first.at, keys: members.compactMap(\.key), category: flushed.category, mark: markIndex)
            case .open(let key):
                ledger.setStatus(.opened, key: key, at: nil)
                outcome.opened += 1
            case .dismiss(let key):
                ledger.setStatus(.dismissed, key: key, at: nil)
                outcome.dismissed += 1
            }
        }
    }

    /// A notification reached the user: count it on its local day and let the user react.
    mutating func delivered(at instant: Int, keys: [String], category: String?, mark markIndex: Int?) {
        let day = zone.localDate(of: instant) - scenario.start
        guard day >= 0 && day < days else { return }
        outcome.perDay[day] += 1
        outcome.deliveries += 1
        if let category { outcome.byCategory[category, default: 0] += 1 }
        let categoryReactions = category.flatMap { scenario.behaviour.categories[$0] }
        let open = categoryReactions.map { $0.open } ?? scenario.behaviour.open
        let dismiss = categoryReactions.map { $0.dismiss } ?? scenario.behaviour.dismiss
        if let open, reactions.chance(open.probability) {
            let delay = reactions.int(in: open.delay.lowerBound..<(open.delay.upperBound + 1))
            for key in keys { schedule(at: instant + delay, .open(key)) }
            if let markIndex { outcome.marks[markIndex].reaction = "opened after \(Self.duration(delay))" }
        } else if let dismiss, reactions.chance(dismiss.probability) {
            let delay = reactions.int(in: dismiss.delay.lowerBound..<(dismiss.delay.upperBound + 1))
            for key in keys { schedule(at: instant + delay, .dismiss(key)) }
            if let markIndex { outcome.marks[markIndex].reaction = "dismissed after \(Self.duration(delay))" }
        }
    }

    static func duration(_ seconds: Int) -> String {
        seconds >= 3600 ? "\(seconds / 3600)h\(seconds % 3600 / 60 > 0 ? " \(seconds % 3600 / 60)m" : "")" : "\(seconds / 60)m"
    }

    // MARK: The picture

    func localTime(_ instant: Int) -> String {
        let local = zone.localDateTime(of: instant)
        let prefix = local.date == zone.localDate(of: instant) ? "" : ""
        return prefix + hhmm(local.time) + (local.date - scenario.start >= 0 ? " day \(local.date - scenario.start + 1)" : "")
    }

    @discardableResult
    mutating func mark(at instant: Int, kind: Mark.Kind, decision: Decision, note: String) -> Int? {
        guard keepMarks else { return nil }
        let local = zone.localDateTime(of: instant)
        let day = local.date - scenario.start
        guard day >= 0 && day < days else { return nil }
        outcome.marks.append(Mark(at: instant, day: day, minute: local.time, kind: kind, type: decision.type,
                                  category: decision.category ?? "", reason: decision.reason, note: note, reaction: nil))
        return outcome.marks.count - 1
    }
}
