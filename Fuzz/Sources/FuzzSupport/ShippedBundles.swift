import Foundation
internal import HeraldContract
public import HeraldEngine
public import HeraldPolicy
public import HeraldSyntax
import HeraldTesting

/// The shipped bundles (policies/<app> with their catalogs), validated and compiled once per
/// process the way `herald decide` loads one.
public struct ShippedBundle: Sendable {
    public var name: String
    public var directory: String
    public var bundle: PolicyBundle
    public var engine: Engine
    /// Every file read, by the path the bundle's spans use.
    public var sources: [String: SourceFile]

    /// Every shipped bundle, handz first. Stops the process if one does not compile: the
    /// targets fuzz against these, and `herald validate` in CI keeps them valid.
    public static let all: [ShippedBundle] = {
        let fm = FileManager.default
        let policies = Fuzz.repositoryRoot + "/policies"
        let apps = ((try? fm.contentsOfDirectory(atPath: policies)) ?? []).sorted { a, b in
            a == "handz" ? true : (b == "handz" ? false : a < b)
        }
        var bundles: [ShippedBundle] = []
        for app in apps {
            let directory = policies + "/" + app
            let result = Validator.validate(directory, lints: false)
            guard let bundle = result.bundle else {
                Fuzz.fail("the shipped bundle \(directory) does not compile: \(result.diagnostics.items.prefix(3))")
            }
            bundles.append(ShippedBundle(name: app, directory: directory, bundle: bundle,
                                         engine: Engine(bundle: bundle), sources: result.sources))
        }
        guard !bundles.isEmpty else { Fuzz.fail("no bundles under \(policies)") }
        return bundles
    }()

    /// The bundle that declares `type` (handz when none does, so an unknown type is still
    /// decided, and rejected, by a real engine).
    public static func declaring(_ type: String) -> ShippedBundle {
        all.first { $0.bundle.types.contains(type) } ?? all[0]
    }

    /// Every request of every shipped policy's scenario tests (`given` overlaid with each
    /// step's `when`, `now` defaulting to `at`, as `herald test` builds them), as JSON text.
    public static func scenarioRequests() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for shipped in all {
            let suite = PolicyTestLoader.load(directory: shipped.directory)
            for test in suite.cases {
                for step in test.steps where !step.isPrompt {
                    var members = test.given.members ?? []
                    for member in step.when.members ?? [] {
                        if let i = members.firstIndex(where: { $0.key == member.key }) { members[i] = member } else { members.append(member) }
                    }
                    if !members.contains(where: { $0.key == "now" }), let at = members.first(where: { $0.key == "at" }) {
                        members.append(JSON.Member("now", at.value))
                    }
                    out.append(Array(JSON.object(members).serialized(pretty: false).utf8))
                }
            }
        }
        return out
    }
}
