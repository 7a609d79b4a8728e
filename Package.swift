// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// `HERALD_SCOPE=embedded` builds only what an app embeds (syntax, policy, engine, testing, the
/// in-memory and SQLite stores, the simulator and a `herald` without `serve` and PostgreSQL): no
/// SwiftNIO, Hummingbird or PostgresNIO. `.ci/run` uses it for the sanitizer and release runs,
/// which are about the engine's and stores' own code; the plain `swift test` builds everything.
let serverScope = Context.environment["HERALD_SCOPE"] != "embedded"

var targets: [Target] = [
    .systemLibrary(
        name: "CLibYAML",
        pkgConfig: "yaml-0.1",
        providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "HeraldSyntax", dependencies: ["CLibYAML"]),
    .target(name: "HeraldPolicy", dependencies: ["HeraldSyntax"]),
    .target(name: "HeraldEngine", dependencies: ["HeraldPolicy"], exclude: ["HotPath/README.md"]),
    .target(name: "HeraldTesting", dependencies: ["HeraldSyntax", "HeraldPolicy", "HeraldEngine"]),
    .target(name: "HeraldStore", dependencies: ["HeraldPolicy", "HeraldEngine"]),
    .target(name: "HeraldSQLite", dependencies: ["HeraldStore", "HeraldEngine", .product(name: "GRDB", package: "GRDB.swift")]),
    .target(name: "HeraldSimulate", dependencies: ["HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldStore"]),
    .executableTarget(
        name: "herald",
        dependencies: [
            "HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldTesting", "HeraldStore", "HeraldSQLite", "HeraldSimulate",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ] + (serverScope ? [
            "HeraldServe", "HeraldPostgres",
            .product(name: "Logging", package: "swift-log"),
        ] : []),
        swiftSettings: serverScope ? [.define("HERALD_SERVER")] : []
    ),
    // What several test targets share: where the built products are, running one as a process.
    .target(name: "HeraldTestSupport", path: "Tests/HeraldTestSupport"),
    .testTarget(name: "HeraldSyntaxTests", dependencies: ["HeraldSyntax"]),
    .testTarget(name: "HeraldPolicyTests", dependencies: ["HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldEngineTests", dependencies: ["HeraldEngine", "HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldTestingTests", dependencies: ["HeraldTesting", "HeraldEngine", "HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldStoreTests", dependencies: ["HeraldStore", "HeraldSQLite", "HeraldEngine", "HeraldPolicy", "HeraldSyntax", "HeraldTesting",
                                                       "herald", "HeraldStoreCrashChild",
                                                       "HeraldTestSupport"],
                swiftSettings: serverScope ? [.define("HERALD_SERVER")] : []),
    .executableTarget(name: "HeraldStoreCrashChild", dependencies: ["HeraldStore", "HeraldSQLite", "HeraldEngine", "HeraldPolicy"],
                      path: "Tests/HeraldStoreCrashChild"),
    .testTarget(name: "HeraldCLITests", dependencies: ["herald", "HeraldPolicy", "HeraldSyntax", "HeraldTesting", "HeraldEngine", "HeraldSimulate",
                                                       "HeraldTestSupport"]),
    .testTarget(name: "HeraldSimulateTests", dependencies: ["HeraldSimulate", "HeraldStore", "HeraldEngine", "HeraldPolicy", "HeraldSyntax"]),
]

// The server side: the sidecar (Hummingbird) and the PostgreSQL store (PostgresNIO).
let serverTargets: [Target] = [
    .target(
        name: "HeraldServe",
        dependencies: [
            "HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldStore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]
    ),
    .testTarget(
        name: "HeraldServeTests",
        dependencies: [
            "HeraldServe", "HeraldEngine", "HeraldStore", "HeraldSQLite", "herald", "HeraldTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    // PostgreSQL ledger store (docs/store.md): its own product, so HeraldStore and HeraldSQLite pull in no NIO.
    .target(
        name: "HeraldPostgres",
        dependencies: [
            "HeraldStore", "HeraldEngine",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    // Decides a run of triggers against a store from one OS process (tests that share a store between processes, benchmarks).
    .executableTarget(
        name: "herald-ledger-load",
        dependencies: ["HeraldPolicy", "HeraldEngine", "HeraldStore", "HeraldSQLite", "HeraldPostgres"],
        path: "Tests/herald-ledger-load"
    ),
    // Decide-and-record throughput and latency of a store with a seeded ledger (docs/performance.md).
    .executableTarget(
        name: "herald-ledger-bench",
        dependencies: ["HeraldPolicy", "HeraldEngine", "HeraldStore", "HeraldSQLite", "HeraldPostgres",
                       .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
        path: "Benchmarks/LedgerStore"
    ),
    .testTarget(
        name: "HeraldPostgresTests",
        dependencies: ["HeraldPostgres", "HeraldStore", "HeraldEngine", "HeraldPolicy", "HeraldSyntax", "herald-ledger-load", "HeraldTestSupport"]
    ),
]
if serverScope { targets += serverTargets }

for index in targets.indices where targets[index].type != .system {
    targets[index].swiftSettings = (targets[index].swiftSettings ?? []) + swiftSettings
}

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HeraldSyntax", targets: ["HeraldSyntax"]),
        .library(name: "HeraldPolicy", targets: ["HeraldPolicy"]),
        .library(name: "HeraldEngine", targets: ["HeraldEngine"]),
        .library(name: "HeraldTesting", targets: ["HeraldTesting"]),
        .library(name: "HeraldStore", targets: ["HeraldStore"]),
        .library(name: "HeraldSQLite", targets: ["HeraldSQLite"]),
        .library(name: "HeraldSimulate", targets: ["HeraldSimulate"]),
        .executable(name: "herald", targets: ["herald"]),
    ] + (serverScope ? [
        .library(name: "HeraldServe", targets: ["HeraldServe"]),
        .library(name: "HeraldPostgres", targets: ["HeraldPostgres"]),
    ] : []),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ] + (serverScope ? [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ] : []),
    targets: targets
)
