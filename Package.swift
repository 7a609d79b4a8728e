// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

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
    .executableTarget(
        name: "herald",
        dependencies: [
            "HeraldSyntax", "HeraldPolicy", "HeraldEngine", "HeraldTesting", "HeraldStore", "HeraldSQLite",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]
    ),
    .testTarget(name: "HeraldSyntaxTests", dependencies: ["HeraldSyntax"]),
    .testTarget(name: "HeraldPolicyTests", dependencies: ["HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldEngineTests", dependencies: ["HeraldEngine", "HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldTestingTests", dependencies: ["HeraldTesting", "HeraldEngine", "HeraldPolicy", "HeraldSyntax"]),
    .testTarget(name: "HeraldStoreTests", dependencies: ["HeraldStore", "HeraldSQLite", "HeraldEngine", "HeraldPolicy", "HeraldSyntax", "herald"]),
    .testTarget(name: "HeraldCLITests", dependencies: ["herald", "HeraldPolicy", "HeraldSyntax", "HeraldTesting", "HeraldEngine"]),
]

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
        .executable(name: "herald", targets: ["herald"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: targets
)
