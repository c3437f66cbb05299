// swift-tools-version:6.1
import PackageDescription

// Depot's benchmarks, measured against Swinject, swift-dependencies and hand-written baselines in
// one run. A package of its own, so the root package stays free of dependencies.
let package = Package(
    name: "DepotBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Depot", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "depot-benchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Depot", package: "Depot"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Sources/DepotBenchmarks"),
        // The black hole and the memory counter, in a module of their own so that the optimizer
        // cannot see through them from the benchmarks.
        .target(name: "BenchmarkSupport", dependencies: ["CAllocatedBytes"]),
        .target(name: "CAllocatedBytes"),
    ],
    swiftLanguageModes: [.v6]
)
