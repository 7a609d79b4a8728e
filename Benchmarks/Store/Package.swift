// swift-tools-version:6.1
import PackageDescription
import struct Foundation.URL

// Decide-and-record against the SQLite store at 10,000 and 1,000,000 ledger rows
// (docs/performance.md, "Decide-and-record"). Its own package, so the root build and CI never
// build it. SwiftPM names a path dependency after its directory, so the root's identity is computed.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let herald = root.lastPathComponent.lowercased()

let package = Package(
    name: "HeraldStoreBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../..", traits: []),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "HeraldStoreBenchmark",
            dependencies: [
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldEngine", package: herald),
                .product(name: "HeraldPolicy", package: herald),
                .product(name: "HeraldStore", package: herald),
                .product(name: "HeraldSQLite", package: herald),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
