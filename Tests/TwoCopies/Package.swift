// swift-tools-version:6.1
// Two processes that link Depot the ways an app can, for the checks in `run`: one with two copies
// of Depot (a static copy in the executable and another inside a dynamic library), one with a
// factory declared in a dynamic library and registered from the executable, both on one shared
// copy (the DepotDynamic product).
import PackageDescription

let package = Package(
    name: "depot-two-copies",
    products: [
        .library(name: "DepotCopy", type: .dynamic, targets: ["DepotCopy"]),
        .library(name: "KeyFixture", type: .dynamic, targets: ["KeyFixture"]),
    ],
    dependencies: [.package(name: "Depot", path: "../..")],
    targets: [
        .target(name: "DepotCopy", dependencies: [.product(name: "Depot", package: "Depot")]),
        .executableTarget(
            name: "two-copies", dependencies: [.product(name: "Depot", package: "Depot")]),
        .target(
            name: "KeyFixture", dependencies: [.product(name: "DepotDynamic", package: "Depot")]),
        .executableTarget(
            name: "cross-module-key",
            dependencies: [.product(name: "DepotDynamic", package: "Depot")]),
    ],
    swiftLanguageModes: [.v6]
)
