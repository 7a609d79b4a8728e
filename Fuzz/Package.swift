// swift-tools-version:6.1
import PackageDescription
import class Foundation.ProcessInfo
import struct Foundation.URL

// libFuzzer targets for Herald (docs/fuzzing.md). Kept out of the root package: each target
// exports `LLVMFuzzerTestOneInput` and takes its `main` from libFuzzer, so it only links
// when built with `--sanitize fuzzer` (scripts/fuzz.sh does that).

// SwiftPM names a path dependency after its directory (`herald`, `main`, a worktree's name),
// so the root package's identity is computed from where this manifest sits.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let herald = root.lastPathComponent.lowercased()

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One executable per fuzz target: scripts/fuzz.sh names them by the part after `Fuzz`.
let fuzzTargets = ["FuzzYAML", "FuzzExpression", "FuzzTemplate", "FuzzDecide", "FuzzRequest", "FuzzBundle"]

let package = Package(
    name: "HeraldFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..", traits: []),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "HeraldSyntax", package: herald),
                .product(name: "HeraldPolicy", package: herald),
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldEngine", package: herald),
                .product(name: "HeraldTesting", package: herald),
            ],
            swiftSettings: swiftSettings
        ),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzSupport",
                .product(name: "HeraldSyntax", package: herald),
                .product(name: "HeraldPolicy", package: herald),
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldEngine", package: herald),
            ],
            swiftSettings: swiftSettings
        )
    }
)
