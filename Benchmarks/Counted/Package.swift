// swift-tools-version:6.1
import PackageDescription
import struct Foundation.URL

// A plain loop of the headline decision, for counting instructions with callgrind
// (docs/performance.md, "Counted"). Its own package, so the root build and CI never build it.
// SwiftPM names a path dependency after its directory, so the root's identity is computed.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let herald = root.lastPathComponent.lowercased()

let package = Package(
    name: "HeraldCounted",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..", traits: [])],
    targets: [
        .executableTarget(
            name: "HeraldCounted",
            dependencies: [
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldEngine", package: herald),
                .product(name: "HeraldPolicy", package: herald),
            ]
        ),
    ]
)
