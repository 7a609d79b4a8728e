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
