// swift-tools-version:6.1
import PackageDescription
import class Foundation.ProcessInfo
import struct Foundation.URL

// SwiftPM names a path dependency after its directory (`herald`, `main`, a worktree's name),
// so the root package's identity is computed from where this manifest sits.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let herald = root.lastPathComponent.lowercased()

let package = Package(
    name: "HeraldBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..", traits: []),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "HeraldBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HeraldContract", package: herald),
                .product(name: "HeraldEngine", package: herald),
                .product(name: "HeraldPolicy", package: herald),
                .product(name: "HeraldSyntax", package: herald),
            ],
            path: "Benchmarks/HeraldBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
