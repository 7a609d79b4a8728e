// swift-tools-version:6.1
// The HTTP stack's floor for `herald serve` (Benchmarks/serve/load.sh floor): a bare Hummingbird 2
// server that answers the same requests `herald serve` is loaded with, doing no work: it reads
// the decide request's body and answers a fixed 1 KB JSON body (the size of a decision with its
// trace). Its own package, so the main package's build does not include it.
import PackageDescription

let package = Package(
    name: "hummingbird-floor",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        .executableTarget(name: "hummingbird-floor", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ]
)
