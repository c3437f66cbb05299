// swift-tools-version: 6.2
// An app-shaped package on Depot whose modules isolate every declaration to the main actor by
// default, as Xcode 26's new app projects do: its own package, built and tested by CI.
import PackageDescription

let mainActorByDefault: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

let package = Package(
    name: "depot-app-example",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "Depot", path: "../..")
    ],
    targets: [
        .target(
            name: "AppFeature",
            dependencies: [.product(name: "Depot", package: "Depot")],
            swiftSettings: mainActorByDefault
        ),
        .testTarget(
            name: "AppFeatureTests",
            dependencies: [
                "AppFeature",
                .product(name: "Depot", package: "Depot"),
                .product(name: "DepotTesting", package: "Depot"),
            ],
            swiftSettings: mainActorByDefault
        ),
        .testTarget(
            name: "AppFeatureXCTests",
            dependencies: [
                "AppFeature",
                .product(name: "Depot", package: "Depot"),
                .product(name: "DepotTesting", package: "Depot"),
            ],
            swiftSettings: mainActorByDefault
        ),
    ]
)
