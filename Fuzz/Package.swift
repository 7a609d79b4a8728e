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
        // `Server` for the `serve` target; the others use none of its products.
        .package(path: "..", traits: ["Server"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
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
    } + [
        // The routes of `herald serve`, through the router (FuzzServe.swift).
        .executableTarget(
            name: "FuzzServe",
            dependencies: [
                "FuzzSupport",
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldServe", package: herald),
                .product(name: "HeraldStore", package: herald),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
