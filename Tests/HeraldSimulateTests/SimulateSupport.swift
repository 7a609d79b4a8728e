import Foundation
import HeraldContract
import HeraldEngine
import HeraldPolicy
import HeraldSimulate

/// Paths and compiled bundles the simulation tests share.
enum SimulateSupport {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func engine(_ policy: String) -> Engine? {
        Validator.validate(path(policy), lints: false).bundle.map(Engine.init(bundle:))
    }

    static let handz = engine("policies/handz")

    static func scenario(_ relative: String, engine: Engine) -> Scenario? {
        ScenarioLoader.load(path: path(relative), engine: engine).scenario
    }
}
