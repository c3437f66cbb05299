// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Depot",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Depot", targets: ["Depot"]),
        .library(name: "DepotTesting", targets: ["DepotTesting"]),
        // Depot as one dynamic library, for apps whose dynamic frameworks all use Depot: linked
        // as a static library into each of them, Depot would be copied into each.
        .library(name: "DepotDynamic", type: .dynamic, targets: ["Depot"]),
    ],
    dependencies: [
        // The engine's two lock-free flags (see ContainerManager.isPlain, AsyncResolution).
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0")
    ],
    targets: [
        .target(name: "Depot", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),
        .target(name: "DepotTesting", dependencies: ["Depot"]),
        .testTarget(
            name: "DepotTests", dependencies: ["Depot", "DepotTesting", "depot-crash-helper"]),
        // Runs scenarios that stop the process (cycles, missing registrations) for the tests
        // that check the message and the exit status, and those that measure the whole process
        // (resident memory) away from the tests running in parallel.
        .executableTarget(
            name: "depot-crash-helper", dependencies: ["Depot"], path: "Tests/CrashHelper"),
        .testTarget(name: "DepotTestingTests", dependencies: ["Depot", "DepotTesting"]),
        // The code of README.md and of the DocC articles, compiled and checked.
        .testTarget(name: "DocumentationTests", dependencies: ["Depot", "DepotTesting"]),
        .executableTarget(name: "quick-start", dependencies: ["Depot"], path: "Examples/quick-start"),
        .executableTarget(name: "lifetimes-tour", dependencies: ["Depot"], path: "Examples/lifetimes-tour"),
        .executableTarget(name: "diagnostics", dependencies: ["Depot"], path: "Examples/diagnostics"),
        .executableTarget(name: "async-tour", dependencies: ["Depot"], path: "Examples/async-tour"),
        .executableTarget(
            name: "swinject-migration", dependencies: ["Depot"], path: "Examples/swinject-migration"),
    ],
    swiftLanguageModes: [.v6]
)
