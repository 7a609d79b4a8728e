import HeraldEngine
import HeraldPolicy
import HeraldTestSupport
import HeraldTesting
import Testing

/// The five seed bundles' scenario tests, run for the suites that check every decision they make
/// (`ResponseTextTests`, `DecisionDigestTests`).
enum SeedBundleRuns {
    static let bundles = ["crescender", "handz", "kwilt", "rin", "urbannest"]

    /// A thread of their own: running a bundle's tests (validating it, then its scenarios) keeps
    /// a thread busy for seconds, which on the cooperative pool (two threads here) would starve
    /// the timing-sensitive suites running beside them.
    static let executor = OwnThreadExecutor()

    /// The bundle's engine and its tests' results.
    static func run(_ name: String) throws -> (engine: Engine, results: [PolicyTestResult]) {
        let directory = BuiltProducts.path("policies/\(name)")
        let bundle = try #require(Validator.validate(directory, lints: false).bundle, "policies/\(name) does not compile")
        let engine = Engine(bundle: bundle)
        return (engine, PolicyTestRunner(engine: engine).run(PolicyTestLoader.load(directory: directory)))
    }
}
