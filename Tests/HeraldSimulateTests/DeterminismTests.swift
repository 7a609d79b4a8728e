import Foundation
import HeraldContract
import HeraldEngine
import HeraldSimulate
import Testing

@Suite struct DeterminismTests {
    /// The same scenario and seed give byte-identical JSON, whatever the number of threads.
    @Test func sameSeedSameBytes() throws {
        let engine = try #require(SimulateSupport.handz)
        let scenario = try #require(SimulateSupport.scenario("policies/handz/scenarios/typical-week.yaml", engine: engine))
        let simulator = Simulator(engine: engine, scenario: scenario)
        let one = simulator.run(.init(users: 60, threads: 1)).json().serialized(pretty: true)
        let two = simulator.run(.init(users: 60, threads: 2)).json().serialized(pretty: true)
        let again = simulator.run(.init(users: 60, threads: 2)).json().serialized(pretty: true)
        #expect(one == two)
        #expect(two == again)
        let other = simulator.run(.init(seed: scenario.seed + 1, users: 60, threads: 2)).json().serialized(pretty: true)
        #expect(other != one, "another seed draws other users and triggers")
    }

    /// Threads that run on a replica (the policy and scenario compiled again) give the same
    /// bytes; a replica of another policy (its digest differs) is not used.
    @Test func replicasGiveTheSameBytes() throws {
        let engine = try #require(SimulateSupport.handz)
        let path = "policies/handz/scenarios/typical-week.yaml"
        let scenario = try #require(SimulateSupport.scenario(path, engine: engine))
        let shared = Simulator(engine: engine, scenario: scenario).run(.init(users: 60, threads: 2)).json().serialized(pretty: true)
        let calls = Counter()
        let replicated = Simulator(engine: engine, scenario: scenario) {
            calls.add()
            guard let copy = SimulateSupport.engine("policies/handz") else { return nil }
            return SimulateSupport.scenario(path, engine: copy).map { (copy, $0) }
        }
        #expect(replicated.run(.init(users: 60, threads: 2)).json().serialized(pretty: true) == shared)
        #expect(calls.value == 1, "one replica, for the second thread")
        #expect(replicated.run(.init(users: 60, threads: 1)).json().serialized(pretty: true) == shared)
        #expect(calls.value == 1, "no replica for one thread")

        // A replica of another policy would decide otherwise: its digest differs, so it is not used.
        let other = try #require(SimulateSupport.engine("policies/kwilt"))
        #expect(other.bundle.digest != engine.bundle.digest)
        let mismatched = Simulator(engine: engine, scenario: scenario) { (other, scenario) }
        #expect(mismatched.run(.init(users: 60, threads: 2)).json().serialized(pretty: true) == shared)
    }

    /// A user's draws do not depend on how many users run: user 5 of 10 is user 5 of 40.
    @Test func usersAreIndependent() throws {
        let engine = try #require(SimulateSupport.handz)
        let scenario = try #require(SimulateSupport.scenario("policies/handz/scenarios/typical-week.yaml", engine: engine))
        let simulator = Simulator(engine: engine, scenario: scenario)
        let small = simulator.run(.init(users: 10, threads: 1))
        let large = simulator.run(.init(users: 40, threads: 2))
        for user in 0..<10 { #expect(small.week(ofUser: user) == large.week(ofUser: user)) }
        #expect(small.json().serialized().contains("\"samples\""))
    }

    /// The generator's stream is fixed: these are its first outputs for seed 1, stream 0.
    @Test func generatorIsStable() {
        var random = SimulationRandom(seed: 1)
        let first = (0..<3).map { _ in random.next() }
        var again = SimulationRandom(seed: 1)
        #expect((0..<3).map { _ in again.next() } == first)
        var otherStream = SimulationRandom(seed: 1, stream: 1)
        #expect(otherStream.next() != first[0])
        var unit = SimulationRandom(seed: 9)
        for _ in 0..<1000 {
            let u = unit.unit()
            #expect(u >= 0 && u < 1)
        }
        var poisson = SimulationRandom(seed: 3)
        let mean = Double((0..<4000).map { _ in poisson.poisson(2.5) }.reduce(0, +)) / 4000
        #expect(abs(mean - 2.5) < 0.15, "Poisson mean \(mean)")
    }
}

/// A count shared with a replica closure (called from the simulator's threads).
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
