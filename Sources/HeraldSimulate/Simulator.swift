internal import HeraldContract
public import HeraldEngine
public import HeraldSyntax
import Dispatch
import HeraldStore
import Synchronization

/// Runs a scenario through the real engine on a virtual clock.
///
/// Users are independent (each has its own ledger and its own random stream), so they are run
/// in chunks on `threads` threads and merged in user order: the result does not depend on the
/// number of threads, and the same scenario and seed give the same result byte for byte.
public struct Simulator: Sendable {
    public struct Options: Sendable {
        /// Overrides the scenario's `days`.
        public var days: Int?
        /// Overrides the scenario's `seed`.
        public var seed: UInt64?
        /// Overrides the scenario's `users`.
        public var users: Int?
        /// How many users (the first ones) keep the marks of the week picture.
        public var sampleUsers: Int
        public var threads: Int

        public init(days: Int? = nil, seed: UInt64? = nil, users: Int? = nil, sampleUsers: Int = 6, threads: Int = 2) {
            self.days = days
            self.seed = seed
            self.users = users
            self.sampleUsers = sampleUsers
            self.threads = threads
        }
    }

    public let engine: Engine
    public let scenario: Scenario
    /// Makes a copy of the policy and the scenario compiled apart (the same files read again)
    /// for each thread after the first, or nil when it cannot.
    public typealias Replica = @Sendable () -> (engine: Engine, scenario: Scenario)?
    /// Optional. Threads that share one compiled policy share its objects' reference counts,
    /// which every decision changes: on two cores that traffic costs more than compiling the
    /// policy again. A replica whose policy digest differs from `engine`'s (a file changed in
    /// between) is not used; that thread shares `engine` and `scenario`. The scenario a
    /// replica returns must be read from the same text as `scenario`.
    public var replica: Replica?

    public init(engine: Engine, scenario: Scenario, replica: Replica? = nil) {
        self.engine = engine
        self.scenario = scenario
        self.replica = replica
    }

    /// Runs every user.
    /// - Parameter progress: called with (users done, users) from any thread, at most ~100 times.
    /// - Complexity: O(users × days × triggers a day × cost of a decision).
    public func run(_ options: Options = Options(), progress: (@Sendable (Int, Int) -> Void)? = nil) -> SimulationResult {
        let users = options.users ?? scenario.users
        let days = options.days ?? scenario.days
        let seed = options.seed ?? scenario.seed
        let threads = max(1, min(options.threads, users))
        let chunkSize = max(1, min(64, (users + threads * 4 - 1) / (threads * 4)))
        let chunks = (users + chunkSize - 1) / chunkSize
        let results = Mutex<[Int: SimulationResult.Partial]>([:])
        let done = Atomic<Int>(0)
        let next = Atomic<Int>(0)
        let shared = (engine: self.engine, scenario: self.scenario)
        let replica = self.replica
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var own = shared
            if thread > 0, let copy = replica?(), copy.engine.bundle.digest == shared.engine.bundle.digest { own = copy }
            let (engine, scenario) = own
            let window = LedgerWindow(bundle: engine.bundle)
            while true {
                let chunk = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard chunk < chunks else { return }
                var partial = SimulationResult.Partial(days: days)
                for index in chunk * chunkSize ..< min(users, (chunk + 1) * chunkSize) {
                    var run = UserRun(engine: engine, scenario: scenario, window: window, index: index, days: days, seed: seed,
                                      keepMarks: index < options.sampleUsers)
                    partial.add(run.run(), sample: index < options.sampleUsers)
                }
                results.withLock { $0[chunk] = partial }
                let finished = done.wrappingAdd(chunkSize, ordering: .relaxed).newValue
                progress?(min(finished, users), users)
            }
        }
        var total = SimulationResult.Partial(days: days)
        results.withLock { partials in
            for chunk in 0..<chunks { if let partial = partials[chunk] { total.merge(partial) } }
        }
        return SimulationResult(scenario: scenario, policy: self.engine.bundle, users: users, days: days, seed: seed, partial: total)
    }

    /// Decides one request per trigger and plan candidate for the population's first user, so a
    /// field the catalog does not declare is a diagnostic with the trigger's place (H0812)
    /// before anything runs.
    public static func check(_ scenario: Scenario, engine: Engine) -> Diagnostics {
        var diagnostics = Diagnostics()
        var run = UserRun(engine: engine, scenario: scenario, window: LedgerWindow(bundle: engine.bundle), index: 0, days: 1, seed: scenario.seed, keepMarks: false)
        run.applyDay(0)
        if let error = run.outcome.errors["population"] {
            diagnostics.error(.scenarioRequest, "the population makes requests the engine rejects: \(error.message.replacingNewlines)", at: nil)
            return diagnostics
        }
        let at = run.dayStart(0) + 12 * 3600
        var places: [(String, ValueSpec, SourceSpan)] = scenario.triggers.map { ($0.type, $0.params, $0.span) }
        places += (scenario.plan?.candidates ?? []).map { ($0.type, $0.params, $0.span) }
        for (type, params, span) in places {
            // `applyDay` converted the user (a shape error was reported above).
            guard let user = run.user else { continue }
            let trigger = run.trigger(type: type, at: at, params: params, subject: nil)
            if case .failure(let errors) = user.flatMap({ user in trigger.flatMap { engine.decide($0, for: user, now: at) } }) {
                diagnostics.error(.scenarioRequest, "a `\(type)` request of this scenario is rejected: \(errors.description.replacingNewlines)", at: span)
            }
        }
        return diagnostics
    }
}

extension String {
    var replacingNewlines: String { split(separator: "\n").joined(separator: "; ") }
}
