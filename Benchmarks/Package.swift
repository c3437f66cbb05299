// swift-tools-version:6.1
import PackageDescription

// Depot's benchmarks, measured against Swinject, swift-dependencies and hand-written baselines in
// one run. A package of its own, so the root package stays free of dependencies.
//     Benchmarks/run          # every benchmark, then the ratios and the floors (README.md)
let package = Package(
    name: "DepotBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Depot", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
        .package(
            url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
            traits: ["MallocInterposer"]),
    ],
    targets: [
        // Every scenario and subject, in a module of its own so that the optimizer cannot see
        // through `blackHole` from the loops that call it.
        // A container and factories declared in a module of their own, for `cross-module-hit`.
        .target(name: "Features", dependencies: [.product(name: "Depot", package: "Depot")]),
        .target(
            name: "Scenarios",
            dependencies: [
                "Features",
                .product(name: "Depot", package: "Depot"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]),
        // package-benchmark's runner: one benchmark per subject (its plugin finds the targets
        // in this folder, `Benchmarks/`).
        .executableTarget(
            name: "DepotBenchmarks",
            dependencies: [
                "Scenarios",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "DepotBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // `--count` for callgrind (no malloc interposer in the way), and `--report`: the ratios
        // and floors from package-benchmark's JMH export.
        .executableTarget(name: "depot-benchmarks", dependencies: ["Scenarios"]),
    ],
    swiftLanguageModes: [.v6]
)
