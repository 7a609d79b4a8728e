// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// What only the `Server` trait builds: `herald serve` (Hummingbird), the PostgreSQL store
/// (PostgresNIO) and their tools. An app that depends on Herald without the trait resolves and
/// builds none of these packages (docs/library.md); the targets below still exist, empty, so
/// their sources are wrapped in `#if Server`.
let server: TargetDependencyCondition? = .when(traits: ["Server"])

let targets: [Target] = [
    .systemLibrary(
        name: "CLibYAML",
        pkgConfig: "yaml-0.1",
        providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "HeraldSyntax", dependencies: ["CLibYAML"]),
    .target(name: "HeraldPolicy", dependencies: ["HeraldSyntax"]),
    .target(name: "HeraldEngine", dependencies: ["HeraldPolicy"], exclude: ["HotPath/README.md"]),
    .target(name: "HeraldContract", dependencies: ["HeraldSyntax", "HeraldPolicy", "HeraldEngine"]),
    .target(name: "HeraldTesting", dependencies: ["HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldContract"]),
    .target(name: "HeraldStore", dependencies: ["HeraldPolicy", "HeraldEngine", "HeraldContract"]),
    .target(name: "HeraldSQLite", dependencies: ["HeraldStore", "HeraldEngine", .product(name: "GRDB", package: "GRDB.swift")]),
    .target(name: "HeraldSimulate", dependencies: ["HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldContract", "HeraldStore"]),
    // `herald lsp`: diagnostics in the editor (docs/editor.md).
    .target(name: "HeraldLanguageServer", dependencies: ["HeraldSyntax", "HeraldPolicy", "HeraldContract"]),
    .executableTarget(
        name: "herald",
        dependencies: [
            "HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldContract", "HeraldTesting", "HeraldStore", "HeraldSQLite", "HeraldSimulate",
            "HeraldLanguageServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .target(name: "HeraldServe", condition: server),
            .target(name: "HeraldPostgres", condition: server),
            .product(name: "Logging", package: "swift-log", condition: server),
        ]
    ),
    // What several test targets share: where the built products are, running one as a process.
    .target(name: "HeraldTestSupport", path: "Tests/HeraldTestSupport"),
    .testTarget(name: "HeraldSyntaxTests", dependencies: ["HeraldSyntax"]),
    .testTarget(name: "HeraldPolicyTests", dependencies: ["HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldEngineTests", dependencies: ["HeraldEngine", "HeraldContract", "HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldTestingTests", dependencies: ["HeraldTesting", "HeraldEngine", "HeraldContract", "HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldStoreTests", dependencies: ["HeraldStore", "HeraldSQLite", "HeraldEngine", "HeraldContract", "HeraldPolicy", "HeraldSyntax", "HeraldTesting",
                                                       "herald", "HeraldStoreCrashChild", "HeraldTestSupport"]),
    .executableTarget(name: "HeraldStoreCrashChild", dependencies: ["HeraldStore", "HeraldSQLite", "HeraldEngine", "HeraldContract", "HeraldPolicy"],
                      path: "Tests/HeraldStoreCrashChild"),
    .testTarget(name: "HeraldCLITests", dependencies: ["herald", "HeraldPolicy", "HeraldSyntax", "HeraldTesting", "HeraldEngine", "HeraldContract", "HeraldSimulate",
                                                       "HeraldTestSupport"]),
    .testTarget(name: "HeraldLanguageServerTests", dependencies: ["HeraldLanguageServer", "HeraldContract", "HeraldTestSupport"]),
    .testTarget(name: "HeraldSimulateTests", dependencies: ["HeraldSimulate", "HeraldStore", "HeraldEngine", "HeraldContract", "HeraldPolicy", "HeraldSyntax"]),

    // The `Server` trait's targets.
    .target(
        name: "HeraldServe",
        dependencies: [
            "HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldContract", "HeraldStore",
            .product(name: "Hummingbird", package: "hummingbird", condition: server),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
            .product(name: "Logging", package: "swift-log", condition: server),
            .product(name: "Metrics", package: "swift-metrics", condition: server),
            .product(name: "Prometheus", package: "swift-prometheus", condition: server),
            .product(name: "NIOPosix", package: "swift-nio", condition: server),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: server),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: server),
        ]
    ),
    .testTarget(
        name: "HeraldServeTests",
        dependencies: [
            "HeraldServe", "HeraldEngine", "HeraldContract", "HeraldStore", "HeraldSQLite", "herald", "HeraldTestSupport",
            .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
            .product(name: "Logging", package: "swift-log", condition: server),
            .product(name: "NIOEmbedded", package: "swift-nio", condition: server),
        ]
    ),
    // The PostgreSQL ledger store (docs/store.md): its own product, so HeraldStore and HeraldSQLite pull in no NIO.
    .target(
        name: "HeraldPostgres",
        dependencies: [
            "HeraldStore", "HeraldEngine",
            .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
            .product(name: "Logging", package: "swift-log", condition: server),
        ]
    ),
    // Decides a run of triggers against a store from one OS process (tests that share a store between processes, benchmarks).
    .executableTarget(
        name: "herald-ledger-load",
        dependencies: ["HeraldPolicy", "HeraldEngine", "HeraldContract", "HeraldStore", "HeraldSQLite", "HeraldPostgres"],
        path: "Tests/herald-ledger-load"
    ),
    // Decide-and-record throughput and latency of a store with a seeded ledger (docs/performance.md).
    .executableTarget(
        name: "herald-ledger-bench",
        dependencies: ["HeraldPolicy", "HeraldEngine", "HeraldContract", "HeraldStore", "HeraldSQLite", "HeraldPostgres",
                       .product(name: "NIOCore", package: "swift-nio", condition: server),
                       .product(name: "NIOPosix", package: "swift-nio", condition: server)],
        path: "Benchmarks/LedgerStore"
    ),
    .testTarget(
        name: "HeraldPostgresTests",
        dependencies: ["HeraldPostgres", "HeraldStore", "HeraldEngine", "HeraldContract", "HeraldPolicy", "HeraldSyntax", "herald-ledger-load", "HeraldTestSupport"]
    ),
]

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HeraldSyntax", targets: ["HeraldSyntax"]),
        .library(name: "HeraldPolicy", targets: ["HeraldPolicy"]),
        .library(name: "HeraldEngine", targets: ["HeraldEngine"]),
        .library(name: "HeraldContract", targets: ["HeraldContract"]),
        .library(name: "HeraldTesting", targets: ["HeraldTesting"]),
        .library(name: "HeraldStore", targets: ["HeraldStore"]),
        .library(name: "HeraldSQLite", targets: ["HeraldSQLite"]),
        .library(name: "HeraldSimulate", targets: ["HeraldSimulate"]),
        .library(name: "HeraldServe", targets: ["HeraldServe"]),
        .library(name: "HeraldPostgres", targets: ["HeraldPostgres"]),
        .executable(name: "herald", targets: ["herald"]),
    ],
    traits: [
        .trait(name: "Server", description: "herald serve (Hummingbird 2) and the PostgreSQL ledger store (PostgresNIO)"),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: targets.map { target in
        if target.type != .system { target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings }
        return target
    }
)
