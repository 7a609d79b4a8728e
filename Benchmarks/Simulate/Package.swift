// swift-tools-version:6.1
import PackageDescription
import struct Foundation.URL

// The simulation benchmark (docs/performance.md, "Simulation"): 10,000 users × 7 days × 20
// triggers a day through `Simulator`, timed on the wall clock. Its own package, so the root build
// and CI never build it. SwiftPM names a path dependency after its directory, so the root's
// identity is computed.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let herald = root.lastPathComponent.lowercased()

let package = Package(
    name: "HeraldSimulateBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..", traits: [])],
    targets: [
        .executableTarget(
            name: "HeraldSimulateBenchmark",
            dependencies: [
                .product(name: "HeraldSimulate", package: herald),
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldEngine", package: herald),
                .product(name: "HeraldPolicy", package: herald),
            ]
        ),
    ]
)
